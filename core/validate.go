package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// CoerceMode chooses which scalar conversions request-model validation makes.
type CoerceMode string

const (
	// CoerceLax makes Pydantic v2's lax scalar conversions ("5" → 5 for
	// integers, "true" → true, 5 → 5.0 for numbers) and reports each one.
	CoerceLax CoerceMode = "lax"
	// CoerceNone converts nothing.
	CoerceNone CoerceMode = "none"
)

// Limits on the arguments of one call.
const (
	// MaxArgumentDepth is the deepest nesting of arrays and objects accepted.
	MaxArgumentDepth = 64
	// MaxArgumentBytes is the largest arguments JSON accepted.
	MaxArgumentBytes = 16 << 20
)

// Conversion records one lax conversion made while normalising arguments.
type Conversion struct {
	Path string `json:"path"` // JSON pointer
	From string `json:"from"` // JSON type before ("string", "integer", …)
	To   string `json:"to"`   // JSON Schema type after
}

// Normalize validates args against the schema and returns them normalised
// like Pydantic's model_dump(exclude_unset=True).
//
// With CoerceLax (also what "" means) it first makes Pydantic v2's lax scalar
// conversions where the schema asks for another type. The schema guides them
// through properties, additionalProperties, items, prefixItems, local $ref and
// allOf; a type array, anyOf or oneOf only when unambiguous (a string is left
// alone when any branch accepts strings, or when it could become either a
// number or a boolean; an object's members are coerced through the one branch
// that accepts objects, if only one does). The conversions: string → integer
// ("5", "5.0", "1_000"), number with no fractional part → integer (5.0 → 5),
// string → number ("2.5"), integer → number (5 → 5.0), string → boolean
// ("true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n",
// any case) and 0 / 1 → boolean. A number never becomes a string. Every
// conversion is returned, in the order of the normalised JSON text. Numbers
// keep their exact digits: 9007199254740993 → 9007199254740993.0, never
// rounded to float64 as Pydantic would.
//
// It then validates with JSON Schema. On failure the error is invalid-arguments
// and its Issues list every failing leaf: a JSON pointer into the arguments,
// the keyword ("type", "required", "minimum", "additionalProperties", …; "false"
// for a false schema) and a message naming the field. A "required" or
// "additionalProperties" failure gives one issue per key, pointing at it. A
// number whose exponent is beyond MaxNumberExponent is an issue too (keyword
// "maxExponent"), found before the validator sees it.
//
// Last, top-level keys the schema does not name are dropped unless the schema
// mentions additionalProperties (see MentionsAdditionalProperties); with
// "additionalProperties": false they were already an issue. Schema defaults
// are not added. Key order is kept. args is never modified; nested values the
// result shares with it must be treated as read-only.
//
// A nil args is invalid-request; an unknown mode is unsupported-type. A
// validator fault is recovered and reported as internal.
func (s *CompiledSchema) Normalize(tool string, args *Arguments, coerce CoerceMode) (*Arguments, []Conversion, error) {
	if s == nil || s.schema == nil {
		return nil, nil, Errorf(CodeInvalidSchema, tool, "no compiled parameters schema to validate against")
	}
	if args == nil {
		return nil, nil, Errorf(CodeInvalidRequest, tool, "no arguments to validate")
	}
	switch coerce {
	case CoerceLax, "":
		coerce = CoerceLax
	case CoerceNone:
	default:
		return nil, nil, Errorf(CodeUnsupportedType, tool, "unknown coerce mode %q: want %q or %q", coerce, CoerceLax, CoerceNone)
	}
	keys := args.orderedKeys()
	values := make(map[string]any, len(keys))
	for _, k := range keys {
		values[k] = args.Values[k]
	}
	var convs []Conversion
	if coerce == CoerceLax && s.plan != nil {
		st := &coerceState{}
		for _, k := range keys {
			c := s.plan.member(k)
			if c == nil {
				continue
			}
			st.path = append(st.path[:0], k)
			if nv, changed := c.apply(values[k], st); changed {
				values[k] = nv
			}
		}
		convs = st.convs
	}
	if err := s.validateSafely(tool, values); err != nil {
		return nil, nil, err
	}
	out := &Arguments{Keys: make([]string, 0, len(keys)), Values: values}
	for _, k := range keys {
		if s.keepKey(k) {
			out.Keys = append(out.Keys, k)
		} else {
			delete(values, k)
		}
	}
	return out, convs, nil
}

// keepKey reports whether a top-level key survives normalisation.
func (s *CompiledSchema) keepKey(k string) bool {
	if s.keepAllKeys {
		return true
	}
	if _, ok := s.knownKeys[k]; ok {
		return true
	}
	for _, re := range s.patterns {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}

// validateSafely is validateValue behind a recover: a fault in the validator
// becomes an internal error instead of a crash, and nothing is let through.
func (s *CompiledSchema) validateSafely(tool string, v any) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			err = Errorf(CodeInternal, tool, "arguments could not be validated: validator fault: %v", r)
		}
	}()
	return s.validateValue(tool, v)
}

// validateValue validates any JSON value (decoded with UseNumber) against the
// schema, without coercion. It returns nil or an invalid-arguments error
// listing every leaf failure (invalid-schema when the schema loops).
func (s *CompiledSchema) validateValue(tool string, v any) *Error {
	if !numbersSafe(v) {
		return argumentsError(tool, sortIssues(unsafeNumbers(v, nil, nil)))
	}
	err := s.schema.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return argumentsError(tool, argumentIssues(ve))
	}
	var loop jsonschema.InfiniteLoopError
	if errors.As(err, &loop) {
		return &Error{Code: CodeInvalidSchema, Tool: tool, Cause: err,
			Message: "parameters schema loops while validating: " + cleanSchemaText(loop.Error())}
	}
	return &Error{Code: CodeInvalidArguments, Tool: tool, Cause: err,
		Message: "arguments hold a value that is not JSON: " + cleanSchemaText(err.Error())}
}

// numbersSafe reports whether unsafeNumbers would find nothing, without
// allocating.
func numbersSafe(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return jsontext.ValidNumber(string(x)) && numberInRange(string(x))
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return numbersSafe(float64(x))
	case map[string]any:
		for _, e := range x {
			if !numbersSafe(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !numbersSafe(e) {
				return false
			}
		}
	}
	return true
}

// unsafeNumbers lists the numbers the validator cannot handle exactly: a
// json.Number that is not a JSON number literal or whose exponent is beyond
// MaxNumberExponent, and NaN or infinite floats.
func unsafeNumbers(v any, path []string, issues []Issue) []Issue {
	switch x := v.(type) {
	case json.Number:
		if !jsontext.ValidNumber(string(x)) {
			p := jsontext.Join("", path...)
			issues = append(issues, Issue{Path: p, Keyword: "type",
				Message: describeField(p, "arguments") + ": " + strconv.Quote(clipText(string(x), 40)) + " is not a JSON number"})
		} else if !numberInRange(string(x)) {
			p := jsontext.Join("", path...)
			issues = append(issues, Issue{Path: p, Keyword: "maxExponent",
				Message: fmt.Sprintf("%s: the number %s has a decimal exponent beyond ±%d", describeField(p, "arguments"), clipText(string(x), 40), MaxNumberExponent)})
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			p := jsontext.Join("", path...)
			issues = append(issues, Issue{Path: p, Keyword: "type", Message: describeField(p, "arguments") + ": NaN and infinities are not JSON numbers"})
		}
	case float32:
		return unsafeNumbers(float64(x), path, issues)
	case map[string]any:
		for k, e := range x {
			issues = unsafeNumbers(e, append(path, k), issues)
		}
	case []any:
		for i, e := range x {
			switch e.(type) {
			case string, bool, nil:
				continue // the common case, without formatting an index
			}
			issues = unsafeNumbers(e, append(path, strconv.Itoa(i)), issues)
		}
	}
	return issues
}

// clipText shortens s to at most n bytes for a message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// argumentsError is the invalid-arguments error of a failed validation.
func argumentsError(tool string, issues []Issue) *Error {
	subject := "the parameters schema"
	if tool != "" {
		subject = fmt.Sprintf("the parameters schema of tool %q", tool)
	}
	return &Error{Code: CodeInvalidArguments, Tool: tool, Issues: issues,
		Message: fmt.Sprintf("arguments do not match %s: %s", subject, summarizeIssues(issues))}
}

// summarizeIssues joins the first issue messages for an error message.
func summarizeIssues(issues []Issue) string {
	const shown = 5
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
	return b.String()
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
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leafErrors(c)...)
	}
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

// strictMessage is LionAGI's message for a failed key-set check.
const strictMessage = "arguments must match the function schema"

// CheckStrict is LionAGI's strict check: the argument keys must equal required.
//
// Keys match exactly. On failure the error is invalid-arguments with one
// issue per missing key (keyword "required") and per unexpected key (keyword
// "strict"), and a message starting with LionAGI's "arguments must match the
// function schema". A nil args is invalid-request.
func CheckStrict(tool string, args *Arguments, required []string) error {
	if args == nil {
		return Errorf(CodeInvalidRequest, tool, "no arguments to check")
	}
	want := make(map[string]struct{}, len(required))
	for _, r := range required {
		want[r] = struct{}{}
	}
	issues := missingIssues(args, required)
	for _, k := range args.orderedKeys() {
		if _, ok := want[k]; !ok {
			p := jsontext.Join("", k)
			issues = append(issues, Issue{Path: p, Keyword: "strict",
				Message: fmt.Sprintf("argument %q is not in the schema's required set (strict mode takes exactly those)", k)})
		}
	}
	return keySetError(tool, issues)
}

// CheckNonStrict is LionAGI's non-strict check: every name in minimum must be
// an argument key.
//
// Extra keys pass. On failure the error is invalid-arguments with one issue
// (keyword "required") per missing name, and a message starting with
// LionAGI's "arguments must match the function schema". A nil args is
// invalid-request.
func CheckNonStrict(tool string, args *Arguments, minimum []string) error {
	if args == nil {
		return Errorf(CodeInvalidRequest, tool, "no arguments to check")
	}
	return keySetError(tool, missingIssues(args, minimum))
}

// missingIssues lists the names of want (once each, in order) that args lacks.
func missingIssues(args *Arguments, want []string) []Issue {
	var issues []Issue
	seen := make(map[string]struct{}, len(want))
	for _, r := range want {
		if _, dup := seen[r]; dup {
			continue
		}
		seen[r] = struct{}{}
		if _, ok := args.Values[r]; !ok {
			issues = append(issues, Issue{Path: jsontext.Join("", r), Keyword: "required",
				Message: fmt.Sprintf("argument %q is required but missing", r)})
		}
	}
	return issues
}

// keySetError is nil for no issues, else the key-set check's error.
func keySetError(tool string, issues []Issue) error {
	if len(issues) == 0 {
		return nil
	}
	return &Error{Code: CodeInvalidArguments, Tool: tool, Issues: issues,
		Message: strictMessage + ": " + summarizeIssues(issues)}
}
