package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// Arguments is a JSON object of call arguments that keeps its top-level key
// order. Values are as encoding/json decodes them with UseNumber: nil, bool,
// json.Number, string, []any, map[string]any.
//
// Keys lists each key of Values once, in the order the caller sent them.
// Functions of this package treat an Arguments they are given as read-only;
// nested values may be shared between an input and the Arguments derived from
// it, so callers should not mutate them either.
type Arguments struct {
	Keys   []string
	Values map[string]any
}

// NewArguments returns an empty Arguments, ready for Set.
func NewArguments() *Arguments {
	return &Arguments{Values: map[string]any{}}
}

// Len returns the number of arguments.
func (a *Arguments) Len() int {
	if a == nil {
		return 0
	}
	return len(a.OrderedKeys())
}

// Get returns the value of key and whether it is present. Keys match exactly:
// no case folding, no Unicode normalisation.
func (a *Arguments) Get(key string) (any, bool) {
	if a == nil || a.Values == nil {
		return nil, false
	}
	v, ok := a.Values[key]
	return v, ok
}

// Set sets key to value, appending key to Keys when it is new and keeping its
// position when it is not. Value must be a JSON value as described on
// Arguments.
func (a *Arguments) Set(key string, value any) {
	if a.Values == nil {
		a.Values = map[string]any{}
	}
	if _, ok := a.Values[key]; !ok {
		a.Keys = append(a.Keys, key)
	}
	a.Values[key] = value
}

// OrderedKeys returns each key of Values once: first those of Keys in their
// order, then any key of Values that Keys lacks, sorted. Keys not in Values
// are skipped. For an Arguments built by DecodeArguments or Set it is Keys
// itself: the caller must not change the list.
func (a *Arguments) OrderedKeys() []string {
	if len(a.Keys) == len(a.Values) {
		consistent := true
		for _, k := range a.Keys {
			if _, ok := a.Values[k]; !ok {
				consistent = false
				break
			}
		}
		if consistent && !hasDuplicates(a.Keys) {
			return a.Keys
		}
	}
	seen := make(map[string]struct{}, len(a.Values))
	keys := make([]string, 0, len(a.Values))
	for _, k := range a.Keys {
		if _, ok := a.Values[k]; !ok {
			continue
		}
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		keys = append(keys, k)
	}
	var rest []string
	for k := range a.Values {
		if _, ok := seen[k]; !ok {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

// hasDuplicates reports whether keys repeats a name. Small lists are checked
// without allocating.
func hasDuplicates(keys []string) bool {
	if len(keys) <= 16 {
		for i := 1; i < len(keys); i++ {
			for j := 0; j < i; j++ {
				if keys[i] == keys[j] {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		if _, ok := seen[k]; ok {
			return true
		}
		seen[k] = struct{}{}
	}
	return false
}

// MarshalJSON writes the arguments as one compact JSON object: top-level keys
// in Keys order (see Arguments), nested objects with their keys sorted, HTML
// characters unescaped, and every json.Number exactly as its text, so no
// number is ever rounded. A nil *Arguments is "null". It refuses values that
// are not JSON (NaN, channels, …). json.Marshal(args) gives the same JSON
// value but, as encoding/json always does with a Marshaler's output, escapes
// <, > and & as \u003c, \u003e and \u0026.
func (a *Arguments) MarshalJSON() ([]byte, error) {
	if a == nil {
		return []byte("null"), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i, k := range a.OrderedKeys() {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(a.Values[k]); err != nil {
			return nil, fmt.Errorf("argument %q: %w", k, err)
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes data with DecodeArguments (no tool name), with all of
// its limits and refusals.
func (a *Arguments) UnmarshalJSON(data []byte) error {
	d, err := DecodeArguments("", data)
	if err != nil {
		return err
	}
	*a = *d
	return nil
}

// DecodeArguments decodes one JSON object of arguments. It refuses (with
// invalid-arguments) nesting deeper than MaxArgumentDepth and input larger than
// MaxArgumentBytes, and (with invalid-request) anything that is not one JSON
// object, trailing data included.
//
// The top-level object counts as the first level of nesting, so
// MaxArgumentDepth nested objects or arrays are accepted and one more is
// refused; the depth is measured by a byte scan before encoding/json parses
// anything. Numbers stay json.Number, so 9007199254740993 is kept exactly.
// Keys are kept byte for byte (PATH is not path, the Kelvin sign is not k).
//
// Also refused with invalid-request:
//   - a repeated top-level key: RFC 7493 (I-JSON) says names MUST NOT repeat,
//     and a repeated key means the sender and toolgate may disagree on the
//     value. Repeats inside nested objects keep the last value, as both
//     encoding/json and JavaScript's JSON.parse do.
//   - bytes that are not valid UTF-8 (encoding/json would silently replace
//     them, so what was validated would differ from what was sent).
//
// Refused with invalid-arguments and an issue (keyword "loneSurrogate", the
// pointer of the string): an escaped lone UTF-16 surrogate such as
// "\ud800", which encoding/json would read as U+FFFD, so that a pattern,
// a const or a length would judge another string than the one sent.
func DecodeArguments(tool string, data []byte) (*Arguments, error) {
	return decodeArguments(tool, data, false)
}

// decodeArguments is DecodeArguments; known is true when the caller has
// already established that data is one syntactically valid JSON value (a
// member sliced out of a request envelope that json.Valid accepted), so the
// second syntax scan is skipped. Every other check still runs.
func decodeArguments(tool string, data []byte, known bool) (*Arguments, error) {
	if len(data) > MaxArgumentBytes {
		return nil, limitError(tool, "maxBytes",
			"arguments are %d bytes of JSON, more than the limit of %d", len(data), MaxArgumentBytes)
	}
	if !utf8.Valid(data) {
		return nil, Errorf(CodeInvalidRequest, tool, "arguments are not valid UTF-8")
	}
	sc := jsontext.Scan(data, MaxArgumentDepth, true)
	switch {
	case sc.First != '{':
		return nil, Errorf(CodeInvalidRequest, tool, "arguments must be one JSON object, got %s", describeStart(sc.First))
	case sc.TooDeep:
		return nil, limitError(tool, "maxDepth",
			"arguments nest deeper than %d levels of objects and arrays", MaxArgumentDepth)
	}
	end := sc.End
	if end < 0 {
		end = len(data) // unterminated: let encoding/json say what is wrong
	}
	if !known && !json.Valid(data[:end]) {
		var v any
		err := json.Unmarshal(data[:end], &v) // for encoding/json's wording of the problem
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, &Error{Code: CodeInvalidRequest, Tool: tool, Message: "arguments are not valid JSON: " + err.Error(), Cause: err}
	}
	if ptr, msg, lone := loneSurrogate(data[:end], "arguments"); lone {
		return nil, &Error{Code: CodeInvalidArguments, Tool: tool, Message: msg,
			Issues: []Issue{{Path: ptr, Keyword: "loneSurrogate", Message: clipText(msg, MaxIssueMessageBytes)}}}
	}
	values := jsontext.ParseValid(data[:end]).(map[string]any)
	if sc.End < 0 || !jsontext.OnlySpace(data[end:]) {
		return nil, Errorf(CodeInvalidRequest, tool, "arguments are followed by trailing data after the JSON object")
	}
	keys := make([]string, len(sc.Keys))
	for i, keySpan := range sc.Keys {
		keys[i] = jsontext.Unquote(data[keySpan.Start:keySpan.End]) // validated above
	}
	if len(keys) != len(values) {
		return nil, Errorf(CodeInvalidRequest, tool,
			"arguments repeat the key %q; a JSON object's names must be unique (RFC 7493, I-JSON)", firstDuplicate(keys))
	}
	return &Arguments{Keys: keys, Values: values}, nil
}

// limitError is the invalid-arguments error of a size or depth cap.
func limitError(tool, keyword, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{
		Code: CodeInvalidArguments, Tool: tool, Message: msg,
		Issues: []Issue{{Path: "", Keyword: keyword, Message: msg}},
	}
}

// describeStart names the kind of JSON text that starts with byte c (0 for
// none), for messages.
func describeStart(c byte) string {
	switch {
	case c == 0:
		return jsontext.Nothing
	case strings.IndexByte(`{["tfn-0123456789`, c) < 0:
		return fmt.Sprintf("text starting with %q", rune(c))
	}
	return jsontext.Described(jsontext.Kind([]byte{c}))
}

// firstDuplicate returns the first key of keys that appeared before.
func firstDuplicate(keys []string) string {
	seen := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		if _, ok := seen[k]; ok {
			return k
		}
		seen[k] = struct{}{}
	}
	return ""
}
