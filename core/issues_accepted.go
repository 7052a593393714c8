package core

// What an issue says would have been accepted, read from the decoded
// schema document (so the fast path, the validator's path and the JS
// evaluator, which gets the fast path's texts, say the same): the values of
// an enum or const, the type with its bounds, and for a key the schema does
// not declare, the nearest declared name.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// maxAcceptedBytes bounds what one message says is accepted (an issue
// message stays within MaxIssueMessageBytes however long the names are).
const maxAcceptedBytes = 240

// acceptedText says what subschema s of doc accepts ("one of \"a\", \"b\"",
// "an integer >= 1 and <= 10", "a string or null"), or "" when it says
// nothing a model can act on. Local $refs are followed a few steps;
// anyOf/oneOf branches are joined with "or" when each says something.
func acceptedText(doc, s any) string {
	return clipText(accepted(doc, s, 4), maxAcceptedBytes)
}

func accepted(doc, s any, depth int) string {
	m, ok := s.(map[string]any)
	if !ok || depth < 0 {
		return ""
	}
	if ref, ok := m["$ref"].(string); ok {
		ptr, err := url.PathUnescape(strings.TrimPrefix(ref, "#"))
		if !strings.HasPrefix(ref, "#") || err != nil {
			return ""
		}
		return accepted(doc, jsontext.At(doc, ptr), depth-1)
	}
	if c, has := m["const"]; has {
		if isComposite(c) {
			return ""
		}
		return "the value " + literalText(c)
	}
	if list, ok := m["enum"].([]any); ok && len(list) > 0 {
		parts := make([]string, len(list))
		for i, e := range list {
			if isComposite(e) {
				return ""
			}
			parts[i] = literalText(e)
		}
		if len(parts) == 1 {
			return "the value " + parts[0]
		}
		return "one of " + strings.Join(parts, ", ")
	}
	if t, has := m["type"]; has {
		return typePhrase(t, m)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := m[kw].([]any); ok && len(list) > 0 {
			parts := make([]string, len(list))
			for i, b := range list {
				if parts[i] = accepted(doc, b, depth-1); parts[i] == "" {
					return ""
				}
			}
			return strings.Join(parts, " or ")
		}
	}
	return ""
}

// typeArticles are the types as a message names one value of them.
var typeArticles = map[string]string{
	"string": "a string", "integer": "an integer", "number": "a number", "boolean": "a boolean",
	"object": "an object", "array": "an array", "null": "null",
}

// typePhrase names the type (or types) with the bounds of the schema.
func typePhrase(t any, m map[string]any) string {
	var names []string
	switch v := t.(type) {
	case string:
		names = []string{v}
	case []any:
		for _, e := range v {
			s, _ := e.(string)
			names = append(names, s)
		}
	}
	phrases := make([]string, 0, len(names))
	for _, n := range names {
		a, ok := typeArticles[n]
		if !ok {
			return ""
		}
		switch n {
		case "integer", "number":
			a += boundsPhrase(m, [][2]string{{"minimum", ">="}, {"exclusiveMinimum", ">"}, {"maximum", "<="}, {"exclusiveMaximum", "<"}}, "")
			if v, ok := m["multipleOf"].(json.Number); ok {
				a += " that is a multiple of " + string(v)
			}
		case "string":
			a += boundsPhrase(m, [][2]string{{"minLength", "of at least"}, {"maxLength", "of at most"}}, " characters")
		case "array":
			a += boundsPhrase(m, [][2]string{{"minItems", "of at least"}, {"maxItems", "of at most"}}, " items")
		}
		phrases = append(phrases, a)
	}
	return strings.Join(phrases, " or ")
}

// boundsPhrase is " >= 1 and <= 10" (or " of at least 2 characters", " of at least 1 character") for
// the number keywords of m that ops lists.
func boundsPhrase(m map[string]any, ops [][2]string, unit string) string {
	var parts []string
	for _, op := range ops {
		if v, ok := m[op[0]].(json.Number); ok {
			u := unit
			if string(v) == "1" { // "at least 1 character", not "1 characters"
				u = strings.TrimSuffix(unit, "s")
			}
			parts = append(parts, op[1]+" "+string(v)+u)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " and ")
}

// literalText is a schema value as JSON text (a string quoted as JSON).
func literalText(v any) string {
	switch x := v.(type) {
	case string:
		return string(jsontext.AppendString(nil, x))
	case json.Number:
		return string(x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// boundLiteral is a number keyword's value in a message: as the schema
// spells it (1000000, not the validator's 1e+06), clipped.
func boundLiteral(lit string) string {
	return clipText(lit, 40)
}

// requiredText is the message tail of a required property that is
// missing: what it takes, when the schema says.
func requiredText(doc, prop any) string {
	if a := acceptedText(doc, prop); a != "" {
		return " is required but missing: it takes " + a
	}
	return " is required but missing"
}

// typeTail ends a type issue: what the schema at s accepts when that says
// more than the type alone.
func typeTail(doc, s any) string {
	a := acceptedText(doc, s)
	if a == "" {
		return ""
	}
	if m, ok := s.(map[string]any); ok && a == typePhrase(m["type"], nil) {
		return "" // the type alone, which the issue names already
	}
	return "; it takes " + a
}

// sentString is how a type issue shows a string value that was sent: a
// short printable-ASCII one quoted (` "many"`), anything else not at all
// (objects, arrays, booleans and null are named by their kind alone).
func sentString(s []byte) string {
	if len(s) > 40 {
		return ""
	}
	for _, c := range s {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return ""
		}
	}
	return ` "` + string(s) + `"`
}

// sentNumber is how a type issue shows a number that was sent: its
// literal, when at most 40 bytes long.
func sentNumber(lit []byte) string {
	if len(lit) > 40 {
		return ""
	}
	return " " + string(lit)
}

// unknownKeyText is the message tail of a key that additionalProperties
// false refuses: the nearest declared name (see nearestName) not already
// in the object, and the declared names when they are few.
func unknownKeyText(key string, declared []string, present func(string) bool) string {
	msg := " is not allowed: the schema names no such property (additionalProperties is false)"
	var free []string
	for _, d := range declared {
		if !present(d) {
			free = append(free, d)
		}
	}
	list := ""
	if len(declared) > 0 && len(declared) <= 12 {
		if l := `"` + strings.Join(declared, `", "`) + `"`; len(l) <= 200 {
			list = "the properties are " + l
		}
	}
	switch near := nearestName(key, free); {
	case near != "" && list != "":
		msg += `; did you mean "` + near + `"? (` + list + ")"
	case near != "":
		msg += `; did you mean "` + near + `"?`
	case list != "":
		msg += "; " + list
	}
	return msg
}

// nearestName is the name of names closest to key by edit distance (over
// code points, ASCII letters compared without case), the first of the
// closest in order, when it is close: at most 2 edits and at most half the
// name's length; else "".
func nearestName(key string, names []string) string {
	best, bestD := "", 3
	k := foldRunes(key)
	for _, n := range names {
		r := foldRunes(n)
		d := editDistance(k, r)
		if d < bestD && 2*d <= len(r) {
			best, bestD = n, d
		}
	}
	return best
}

// foldRunes is s as code points, ASCII letters lower-cased (invalid UTF-8
// bytes each one U+FFFD).
func foldRunes(s string) []rune {
	out := make([]rune, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		out = append(out, r)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, cut off above 3
// (long names are compared only when their lengths are close).
func editDistance(a, b []rune) int {
	if d := len(a) - len(b); d > 3 || d < -3 {
		return 4
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
