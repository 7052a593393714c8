package core

// Input examples: argument objects that show a model a good call of a tool
// (Anthropic's input_examples). Each is checked at creation as a call of the
// tool, because an example the tool would refuse teaches a model a wrong
// call.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// setInputExamples checks examples as calls of t and keeps them as compact
// JSON (key order kept). It refuses, with invalid-tool naming the example's
// index in every issue's path (/inputExamples/<i>/…), more than
// MaxInputExamples examples (keyword maxItems), more than
// MaxInputExamplesBytes of them together (maxBytes), and an example that is
// not the arguments of a call the tool accepts as written: one that is not
// JSON (keyword json) or no object (type), one Validate would refuse (the
// schema's keyword, "required", "signature"), one that only passes through
// a lax conversion other than between integer and number (keyword "type":
// "5" for an integer teaches a model to send strings), and one with a
// top-level key the tool would drop (keyword "additionalProperties").
func (t *Tool) setInputExamples(examples []json.RawMessage) error {
	if len(examples) == 0 {
		return nil
	}
	name := t.Function()
	if len(examples) > MaxInputExamples {
		return examplesError(name, -1, []Issue{{Path: "/inputExamples", Keyword: "maxItems",
			Message: fmt.Sprintf("a tool has at most %d input examples, got %d", MaxInputExamples, len(examples))}})
	}
	out := make([]json.RawMessage, len(examples))
	total := 0
	for i, ex := range examples {
		compact, err := t.checkInputExample(name, i, ex)
		if err != nil {
			return err
		}
		total += len(compact)
		if total > MaxInputExamplesBytes {
			return examplesError(name, -1, []Issue{{Path: "/inputExamples", Keyword: "maxBytes",
				Message: fmt.Sprintf("the input examples are more than %d bytes of compact JSON together", MaxInputExamplesBytes)}})
		}
		out[i] = compact
	}
	t.InputExamples = out
	return nil
}

// checkInputExample checks example i as a call of t and returns it as
// compact JSON, or the invalid-tool error saying why it is refused.
func (t *Tool) checkInputExample(name string, i int, ex json.RawMessage) (json.RawMessage, error) {
	prefix := "/inputExamples/" + strconv.Itoa(i)
	if len(bytes.TrimSpace(ex)) > MaxInputExamplesBytes {
		return nil, examplesError(name, i, []Issue{{Path: prefix, Keyword: "maxBytes",
			Message: fmt.Sprintf("input example %d is more than %d bytes", i, MaxInputExamplesBytes)}})
	}
	args, err := DecodeArguments(name, ex)
	if err != nil {
		keyword := "json" // not JSON, trailing data, a repeated key
		if t := bytes.TrimSpace(ex); len(t) == 0 || t[0] != '{' {
			keyword = "type" // JSON, but no object
		}
		return nil, examplesError(name, i, prefixIssues(prefix, err, keyword))
	}
	out, conv, err := t.ValidateArguments(args)
	if err == nil {
		err = t.checkSignature(out)
	}
	if err != nil {
		return nil, examplesError(name, i, prefixIssues(prefix, err, "type"))
	}
	var issues []Issue
	for _, c := range conv {
		if numeric(c.From) && numeric(c.To) {
			continue // 5 for a number, 5.0 for an integer: JSON Schema accepts both as written
		}
		issues = append(issues, Issue{Path: prefix + c.Path, Keyword: "type",
			Message: fmt.Sprintf("the value at %q is a %s the tool converts to %s; write it as %s in the example", c.Path, c.From, c.To, c.To)})
	}
	if out.Len() < args.Len() {
		for _, k := range args.OrderedKeys() {
			if _, kept := out.Values[k]; !kept {
				issues = append(issues, Issue{Path: prefix + jsontext.Join("", k), Keyword: "additionalProperties",
					Message: fmt.Sprintf("argument %q is not a parameter of %s: the tool drops it", k, name)})
			}
		}
	}
	if issues != nil {
		return nil, examplesError(name, i, issues)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, bytes.TrimSpace(ex)); err != nil { // valid: DecodeArguments read it
		return nil, examplesError(name, i, []Issue{{Path: prefix, Keyword: "type", Message: "input example is not valid JSON"}})
	}
	return b.Bytes(), nil
}

// numeric reports whether a conversion's type is a JSON number.
func numeric(kind string) bool { return kind == "integer" || kind == "number" }

// prefixIssues returns err's issues with prefix before each path, or one
// issue with keyword (at prefix) carrying err's message when it has none.
func prefixIssues(prefix string, err error, keyword string) []Issue {
	e := AsError(err)
	if len(e.Issues) == 0 {
		return []Issue{{Path: prefix, Keyword: keyword, Message: e.Message}}
	}
	out := make([]Issue, len(e.Issues))
	for j, is := range e.Issues {
		is.Path = prefix + is.Path
		out[j] = is
	}
	return out
}

// examplesError is the invalid-tool refusal of the input examples (of
// example i, or of all of them when i < 0).
func examplesError(tool string, i int, issues []Issue) *Error {
	issues = boundIssues(issues)
	subject := "the input examples of " + strconv.Quote(tool)
	if i >= 0 {
		subject = "input example " + strconv.Itoa(i) + " of " + strconv.Quote(tool) + " is not a call the tool accepts as written"
	}
	return &Error{Code: CodeInvalidTool, Tool: tool, Issues: issues,
		Message: clipText(subject+": "+summarizeIssues(issues), MaxErrorMessageBytes)}
}
