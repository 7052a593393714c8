//go:build !toolgate_remote_validator

package core

// The validator in this module: santhosh-tekuri/jsonschema/v5 compiles and
// validates here. (Under the toolgate_remote_validator build tag,
// engine_remote.go asks a second module, which links this file, instead.)

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/internal/redact"
)

// validatorSchema is a schema compiled with the validator.
type validatorSchema = *localSchema

// validatorUnavailable reports whether err says the validator could not be
// reached (never, in this module).
func validatorUnavailable(*Error) bool { return false }

// compileValidator compiles a decoded schema document with the validator,
// turning its errors into invalid-schema errors. local says whether every
// $ref is a local pointer (checkWalk has then been run already).
func compileValidator(tool string, schema json.RawMessage, doc any, local bool) (*localSchema, *Error) {
	var refused string
	c := newSchemaCompiler(&refused)
	if err := c.AddResource(schemaBaseURL, bytes.NewReader(schema)); err != nil {
		return nil, schemaTextError(tool, "parameters schema is not valid: "+cleanSchemaText(err.Error()), err)
	}
	compiled, err := c.Compile(schemaBaseURL)
	if err != nil {
		return nil, compileError(tool, doc, refused, err, c)
	}
	if !local {
		if bound := checkWalk(doc, compiledRefs(c, compiled, doc)); bound != nil {
			return nil, schemaIssueError(tool, bound.path, bound.keyword, bound.msg)
		}
	}
	ls := &localSchema{root: compiled, doc: doc}
	// A cheap test first: most schemas declare no $dynamicAnchor.
	if bytes.Contains(schema, []byte("dynamicAnchor")) {
		ls.anchors = dynamicAnchorRoots(c, doc)
	}
	return ls, nil
}

// validateWith validates v (see validateValue) with a compiled schema.
func validateWith(sch *localSchema, tool string, v any) *Error {
	err := sch.root.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return argumentsError(tool, argumentIssues(v, ve, sch.at, sch.doc))
	}
	var loop jsonschema.InfiniteLoopError
	if errors.As(err, &loop) {
		return &Error{Code: CodeInvalidSchema, Tool: tool, Cause: err,
			Message: "parameters schema loops while validating: " + cleanSchemaText(loop.Error())}
	}
	return &Error{Code: CodeInvalidArguments, Tool: tool, Cause: err,
		Message: "arguments hold a value that is not JSON: " + cleanSchemaText(err.Error())}
}

// newSchemaCompiler is the validator's compiler as toolgate configures it:
// 2020-12 by default, formats and content never asserted, the empty-enum
// assertion, and a loader that refuses every URL, noting the first in
// *refused.
func newSchemaCompiler(refused *string) *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = false
	c.AssertContent = false
	// Older drafts (and a missing "$schema") assert formats whatever
	// AssertFormat says; an always-true checker for every known format makes
	// "format" an annotation everywhere.
	for name := range jsonschema.Formats {
		c.Formats[name] = acceptAnyFormat
	}
	c.RegisterExtension("toolgate-empty-enum", nil, emptyEnum{})
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		if *refused == "" {
			*refused = u
		}
		return nil, errRefRefused
	}
	return c
}

// acceptAnyFormat is the format checker that makes "format" an annotation.
func acceptAnyFormat(any) bool { return true }

// emptyEnum makes "enum": [] refuse every value, as the specification says.
// jsonschema v5.3.1 skips an empty enum and so accepts everything (fail
// open); this compiler extension adds the missing assertion.
type emptyEnum struct{}

// Compile returns the assertion for a subschema whose enum is empty.
func (emptyEnum) Compile(_ jsonschema.CompilerContext, m map[string]any) (jsonschema.ExtSchema, error) {
	if e, ok := m["enum"].([]any); ok && len(e) == 0 {
		return emptyEnumSchema{}, nil
	}
	return nil, nil
}

// emptyEnumSchema is the assertion that nothing is in an empty enum.
type emptyEnumSchema struct{}

// Validate refuses v.
func (emptyEnumSchema) Validate(ctx jsonschema.ValidationContext, _ any) error {
	return ctx.Error("enum", "no value is allowed: enum is empty")
}

// compileError turns a jsonschema compile error into an invalid-schema error;
// c is the compiler that failed.
func compileError(tool string, doc any, refused string, err error, c *jsonschema.Compiler) *Error {
	if errors.Is(err, errRefRefused) {
		keyword := "$ref"
		if m, ok := doc.(map[string]any); ok {
			if sch, ok := m["$schema"].(string); ok && strings.SplitN(sch, "#", 2)[0] == refused {
				keyword = "$schema"
			}
		}
		msg := fmt.Sprintf("parameters schema refers to %s, outside itself; %s, so a schema may only use its own parts and the built-in draft metaschemas",
			clipText(redact.URL(refused), MaxIssueMessageBytes/2), errRefRefused.Error())
		e := schemaIssueError(tool, "", keyword, msg)
		e.Cause = err
		return e
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		issues := boundIssues(schemaIssues(doc, ve, metaschemaIndex(c)))
		msg := "parameters schema does not conform to its JSON Schema metaschema: " + summarizeIssues(issues)
		return &Error{Code: CodeInvalidSchema, Tool: tool, Message: clipText(msg, MaxErrorMessageBytes), Issues: issues, Cause: err}
	}
	text := err.Error()
	var se *jsonschema.SchemaError
	if errors.As(err, &se) && se.Err != nil {
		text = se.Err.Error()
	}
	return schemaTextError(tool, "parameters schema is not valid: "+cleanSchemaText(text), err)
}

// regexIssue explains a pattern (or patternProperties name) at path that is
// not an RE2 regular expression.
func regexIssue(doc any, path string) Issue {
	tokens := jsontext.Tokens(path)
	keyword := "pattern"
	pattern := ""
	if n := len(tokens); n >= 2 && tokens[n-2] == "patternProperties" {
		keyword = "patternProperties"
		pattern = tokens[n-1]
	} else if s, ok := jsontext.At(doc, path).(string); ok {
		pattern = s
	}
	why := "not a valid regular expression"
	if _, err := regexp.Compile(pattern); err != nil {
		why = err.Error()
	}
	return Issue{Path: path, Keyword: keyword, Message: fmt.Sprintf(
		"%s: %q is not an RE2 regular expression (%s); toolgate, like Go, does not support ECMAScript-only syntax such as look-ahead (?=…), look-behind (?<=…) or back-references",
		describeField(path, "schema"), pattern, why)}
}

// compiledRefs resolves references as the compiled validator does: c
// compiled doc (its root is root), and the compiled subschema at each
// location says where its $ref, $dynamicRef and $recursiveRef lead. A
// dynamic reference leads to the outermost schema of the validator's dynamic
// scope that declares its anchor; the scope starts at the root, so when the
// root declares it, the root is the one; otherwise every subschema declaring
// it may be, and all are counted.
func compiledRefs(c *jsonschema.Compiler, root *jsonschema.Schema, doc any) refTargets {
	rootURL, _, _ := strings.Cut(root.Location, "#")
	pointer := func(s *jsonschema.Schema) []string {
		if loc, ok := strings.CutPrefix(s.Location, rootURL+"#"); ok {
			return []string{cleanPointer(loc)}
		}
		return nil // a built-in metaschema
	}
	declaring := map[string][]string{} // "$dynamicAnchor" name, or "" for "$recursiveAnchor": true
	collectAnchors(doc, "", declaring)
	dynamic := func(t *jsonschema.Schema, anchor string, declared bool) []string {
		if !declared {
			return pointer(t)
		}
		if list := declaring[anchor]; len(list) > 0 && list[0] == "" {
			return []string{""}
		}
		out := append(pointer(t), declaring[anchor]...)
		slices.Sort(out)
		return slices.Compact(out)
	}
	return func(loc string, m map[string]any) []string {
		_, ref := m["$ref"].(string)
		_, dyn := m["$dynamicRef"].(string)
		_, rec := m["$recursiveRef"].(string)
		if !ref && !dyn && !rec {
			return nil
		}
		s, err := c.Compile(schemaBaseURL + "#" + (&url.URL{Fragment: loc}).EscapedFragment())
		if err != nil {
			return nil
		}
		var out []string
		if s.Ref != nil {
			out = append(out, pointer(s.Ref)...)
		}
		if t := s.DynamicRef; t != nil {
			out = append(out, dynamic(t, t.DynamicAnchor, t.DynamicAnchor != "")...)
		}
		if t := s.RecursiveRef; t != nil {
			out = append(out, dynamic(t, "", t.RecursiveAnchor)...)
		}
		return out
	}
}

// cleanSchemaText removes the compiler's internal base URL and prefix.
func cleanSchemaText(s string) string {
	s = strings.ReplaceAll(s, "jsonschema: ", "")
	s = strings.ReplaceAll(s, schemaBaseURL+"#", "#")
	return strings.ReplaceAll(s, schemaBaseURL, "the schema")
}

// isIndexToken reports whether a pointer token is an array index.
func isIndexToken(s string) bool {
	_, ok := jsontext.Index(s)
	return ok
}

// cleanPointer turns the validator's instance location (tokens escaped for
// JSON pointers and then for URL paths) into a plain RFC 6901 pointer.
func cleanPointer(loc string) string {
	if loc == "" || !strings.Contains(loc, "%") {
		return loc
	}
	parts := strings.Split(loc, "/")
	for i, p := range parts {
		if u, err := url.PathUnescape(p); err == nil {
			parts[i] = u
		}
	}
	return strings.Join(parts, "/")
}

// collectAnchors lists, by name, the pointers of the objects declaring a
// "$dynamicAnchor" (and, under "", a true "$recursiveAnchor"), in document
// order with the root first.
func collectAnchors(v any, loc string, into map[string][]string) {
	switch v := v.(type) {
	case map[string]any:
		if a, ok := v["$dynamicAnchor"].(string); ok && a != "" {
			into[a] = append(into[a], loc)
		}
		if v["$recursiveAnchor"] == true {
			into[""] = append(into[""], loc)
		}
		for _, k := range sortedKeys(v) {
			collectAnchors(v[k], jsontext.Join(loc, k), into)
		}
	case []any:
		for i, c := range v {
			collectAnchors(c, loc+"/"+strconv.Itoa(i), into)
		}
	}
}
