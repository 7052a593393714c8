package core

// Issues: turning a validator's error tree into the model-ready list of
// problems an invalid-arguments or invalid-schema error carries (a JSON
// pointer, the keyword, a message naming the field), sorted and de-duplicated.

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// clipText shortens s to at most n bytes (not cutting a UTF-8 sequence) for
// a message, marking the cut with "…".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// argumentsError is the invalid-arguments error of a failed validation.
func argumentsError(tool string, issues []Issue) *Error {
	subject := "the parameters schema"
	if tool != "" {
		subject = fmt.Sprintf("the parameters schema of tool %q", tool)
	}
	issues = boundIssues(issues)
	return &Error{Code: CodeInvalidArguments, Tool: tool, Issues: issues,
		Message: clipText(fmt.Sprintf("arguments do not match %s: %s", subject, summarizeIssues(issues)), MaxErrorMessageBytes)}
}

// omittedKeyword is the keyword of the last issue of a report cut at
// MaxIssues.
const omittedKeyword = "maxIssues"

// boundIssues keeps a report within its limits: the first MaxIssues issues
// of a sorted list, then (if there were more) one saying how many were left
// out, each message clipped to MaxIssueMessageBytes.
func boundIssues(issues []Issue) []Issue {
	if len(issues) > MaxIssues {
		omitted := len(issues) - MaxIssues
		issues = append(issues[:MaxIssues:MaxIssues], Issue{Path: "", Keyword: omittedKeyword,
			Message: fmt.Sprintf("%d more issues are not listed: a report lists at most %d", omitted, MaxIssues)})
	}
	for i := range issues {
		issues[i].Message = clipText(issues[i].Message, MaxIssueMessageBytes)
	}
	return issues
}

// summarizeIssues joins the first issue messages for an error message (at
// most MaxErrorMessageBytes), ending with what a cut report left out.
func summarizeIssues(issues []Issue) string {
	const shown = 5
	var omitted string
	if n := len(issues); n > 0 && issues[n-1].Keyword == omittedKeyword {
		omitted = "; " + issues[n-1].Message
		issues = issues[:n-1]
	}
	var b strings.Builder
	for i, is := range issues {
		if i == shown {
			fmt.Fprintf(&b, "; and %d more", len(issues)-shown)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(is.Message)
	}
	b.WriteString(omitted)
	return clipText(b.String(), MaxErrorMessageBytes)
}

// argumentIssues turns a validation error tree into one issue per failing
// leaf, paths pointing into the arguments.
func argumentIssues(ve *jsonschema.ValidationError) []Issue {
	var issues []Issue
	for _, leaf := range leafErrors(ve) {
		path := cleanPointer(leaf.InstanceLocation)
		keyword := keywordOf(leaf)
		switch {
		case keyword == "required" && strings.HasPrefix(leaf.Message, "missing properties: "):
			for _, name := range quotedNames(strings.TrimPrefix(leaf.Message, "missing properties: ")) {
				p := jsontext.Join(path, name)
				issues = append(issues, Issue{Path: p, Keyword: "required",
					Message: describeField(p, "arguments") + " is required but missing"})
			}
			continue
		case keyword == "additionalProperties" && strings.HasPrefix(leaf.Message, "additionalProperties "):
			names := quotedNames(strings.TrimSuffix(strings.TrimPrefix(leaf.Message, "additionalProperties "), " not allowed"))
			for _, name := range names {
				p := jsontext.Join(path, name)
				issues = append(issues, Issue{Path: p, Keyword: "additionalProperties",
					Message: describeField(p, "arguments") + " is not allowed: the schema names no such property (additionalProperties is false)"})
			}
			if len(names) > 0 {
				continue
			}
		case keyword == "dependentRequired" || keyword == "dependencies":
			if names := quotedNames(strings.TrimPrefix(leaf.Message, "property ")); len(names) > 0 {
				p := jsontext.Join(path, names[0])
				issues = append(issues, Issue{Path: p, Keyword: keyword,
					Message: describeField(p, "arguments") + " is required: " + leaf.Message})
				continue
			}
		}
		issues = append(issues, Issue{Path: path, Keyword: keyword, Message: describeField(path, "arguments") + ": " + leaf.Message})
	}
	return sortIssues(issues)
}

// leafErrors lists the errors of a tree that have no causes, depth first.
func leafErrors(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// keywordOf finds the keyword a leaf error is about by reading its keyword
// location as a schema path: which segments are keywords and which are
// property names or indexes. A location that ends on a subschema (a false
// schema) gives "false", or the keyword that holds it (additionalProperties,
// unevaluatedProperties, items, …).
func keywordOf(leaf *jsonschema.ValidationError) string {
	var segs []string
	if leaf.KeywordLocation != "" {
		segs = strings.Split(strings.TrimPrefix(leaf.KeywordLocation, "/"), "/")
	}
	last := ""
	endsOnName := false
	for i := 0; i < len(segs); i++ {
		kw := segs[i]
		last = kw
		endsOnName = false
		switch kw {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
			"allOf", "anyOf", "oneOf", "prefixItems":
			if i+1 < len(segs) {
				i++
				endsOnName = true
			}
		case "items", "additionalItems":
			if i+1 < len(segs) && isIndexToken(segs[i+1]) {
				i++
				endsOnName = true
			}
		case "dependencies":
			i++
			endsOnName = true
			if i+1 == len(segs)-1 && isIndexToken(segs[i+1]) {
				i++
				endsOnName = false
			}
		case "dependentRequired":
			i += 2
		}
	}
	if leaf.Message == "not allowed" {
		switch {
		case endsOnName || last == "" || last == "$ref" || last == "$dynamicRef" || last == "$recursiveRef":
			return "false"
		}
		return last
	}
	if endsOnName || last == "" {
		return "schema"
	}
	return last
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

// quotedNames parses the validator's list of names, each single-quoted with
// Go escapes (its quote function), separated by ", ".
func quotedNames(s string) []string {
	var names []string
	for i := 0; i < len(s); {
		if s[i] != '\'' {
			i++
			continue
		}
		var b strings.Builder
		b.WriteByte('"')
		j := i + 1
		closed := false
		for j < len(s) {
			c := s[j]
			if c == '\\' && j+1 < len(s) {
				if s[j+1] == '\'' {
					b.WriteByte('\'')
				} else {
					b.WriteByte('\\')
					b.WriteByte(s[j+1])
				}
				j += 2
				continue
			}
			if c == '\'' {
				closed = true
				break
			}
			if c == '"' {
				b.WriteString(`\"`)
			} else {
				b.WriteByte(c)
			}
			j++
		}
		if !closed {
			break
		}
		b.WriteByte('"')
		if name, err := strconv.Unquote(b.String()); err == nil {
			names = append(names, name)
		}
		i = j + 1
	}
	return names
}

// describeField names the place a JSON pointer designates, for messages:
// "field /a/0/b", or the subject itself for the root.
func describeField(ptr, subject string) string {
	if ptr == "" {
		if subject == "schema" {
			return "schema root"
		}
		return subject
	}
	if subject == "schema" {
		return "schema at " + ptr
	}
	return "field " + ptr
}

// sortIssues orders issues by path (array indexes numerically), keyword and
// message, and removes repeats, so errors are deterministic.
func sortIssues(issues []Issue) []Issue {
	sort.SliceStable(issues, func(i, j int) bool {
		a, b := issues[i], issues[j]
		if a.Path != b.Path {
			return jsontext.Less(a.Path, b.Path)
		}
		if a.Keyword != b.Keyword {
			return a.Keyword < b.Keyword
		}
		return a.Message < b.Message
	})
	out := issues[:0]
	for i, is := range issues {
		if i > 0 && is == issues[i-1] {
			continue
		}
		out = append(out, is)
	}
	return out
}
