package core

// A conservative check that a schema conforms to draft 2020-12's
// metaschema, so that the full validator's compile can wait until it is
// needed: when sureValid says true, compiling the document with the
// validator is certain to succeed (the tests hold the two to that, on the
// fast path's generated schemas, the JSON-Schema-Test-Suite and the
// validation fixtures, and FuzzSureValid); whenever it is in doubt it says
// false, and the validator compiles at once, producing its own errors as
// before.

import (
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// metaWalk walks a schema document as the metaschema does, noting every
// schema location and every $ref target.
type metaWalk struct {
	schemas map[string]bool     // the JSON pointers of the schema locations visited
	refs    []string            // the pointers of the $refs met
	inPlace map[string][]string // the subschemas applied to a location's value: $ref, allOf, anyOf, oneOf
	draft7  bool                // the root's "$schema" names draft-07
	// untracked: no location is noted (schemas and inPlace stay nil and
	// locations are not written), until a "$ref" is met, which stops the
	// walk (sawRef) for one that tracks. Without a $ref, no location is a
	// target and no loop can form (allOf, anyOf and oneOf only go deeper).
	untracked, sawRef bool
}

// sureValid reports whether doc (decoded with UseNumber) certainly conforms
// to its draft's metaschema (2020-12, or draft-07 when "$schema" says so) and its $refs all point at schema locations
// of the document, so that the validator is sure to compile it.
func sureValid(doc any) bool {
	draft7 := false
	if m, ok := doc.(map[string]any); ok {
		draft7 = isDraft07(m["$schema"])
	}
	quick := &metaWalk{draft7: draft7, untracked: true}
	if quick.schema(doc, "", true) {
		return true
	}
	if !quick.sawRef {
		return false
	}
	w := &metaWalk{schemas: map[string]bool{}, inPlace: map[string][]string{}, draft7: draft7}
	if !w.schema(doc, "", true) {
		return false
	}
	for _, r := range w.refs {
		if !w.schemas[r] {
			return false
		}
	}
	return !w.loops()
}

// loops reports whether a location reaches itself through $ref, allOf,
// anyOf or oneOf without descending into the value (the validator refuses
// such a loop, at compile or validation time).
func (w *metaWalk) loops() bool {
	const visiting, done = 1, 2
	state := map[string]int{}
	var cyclic func(loc string) bool
	cyclic = func(loc string) bool {
		switch state[loc] {
		case visiting:
			return true
		case done:
			return false
		}
		state[loc] = visiting
		for _, next := range w.inPlace[loc] {
			if cyclic(next) {
				return true
			}
		}
		state[loc] = done
		return false
	}
	for loc := range w.inPlace {
		if cyclic(loc) {
			return true
		}
	}
	return false
}

// metaSimpleTypes are the names "type" may hold.
var metaSimpleTypes = map[string]bool{
	"array": true, "boolean": true, "integer": true, "null": true, "number": true, "object": true, "string": true,
}

// metaUnsure are the keywords the check does not follow (each sends the
// schema to the validator's compile at once): the rest of 2020-12's
// vocabularies, and older drafts' keywords the validator still reads.
var metaUnsure = map[string]bool{
	"$id": true, "id": true, "$anchor": true, "$dynamicRef": true, "$dynamicAnchor": true, "$vocabulary": true,
	"$recursiveRef": true, "$recursiveAnchor": true, "patternProperties": true, "dependentSchemas": true,
	"propertyNames": true, "if": true, "then": true, "else": true, "not": true, "contains": true,
	"unevaluatedItems": true, "unevaluatedProperties": true, "maxContains": true, "minContains": true,
	"dependentRequired": true, "dependencies": true, "additionalItems": true,
}

// schema checks the subschema v at loc.
func (w *metaWalk) schema(v any, loc string, root bool) bool {
	if !w.untracked {
		w.schemas[loc] = true
	}
	switch m := v.(type) {
	case bool:
		return true
	case map[string]any:
		for kw, val := range m {
			if !w.keyword(kw, val, loc, root) {
				return false
			}
		}
		return true
	}
	return false
}

// keyword checks one keyword of the subschema at loc.
func (w *metaWalk) keyword(kw string, v any, loc string, root bool) bool {
	if metaUnsure[kw] || w.draft7 && draft07Unsure[kw] {
		return false
	}
	switch kw {
	case "$schema":
		return root && (isDraft2020(v) || isDraft07(v))
	case "$ref":
		if w.untracked {
			w.sawRef = true
			return false
		}
		s, ok := v.(string)
		if !ok || !safeLocalRef(s) {
			return false
		}
		target, ok := localPointer(s)
		w.refs = append(w.refs, target)
		w.inPlace[loc] = append(w.inPlace[loc], target)
		return ok
	case "$comment", "title", "description", "format", "contentEncoding", "contentMediaType":
		_, ok := v.(string)
		return ok
	case "deprecated", "readOnly", "writeOnly", "uniqueItems":
		_, ok := v.(bool)
		return ok
	case "examples":
		_, ok := v.([]any)
		return ok
	case "enum":
		list, ok := v.([]any)
		return ok && (!w.draft7 || len(list) > 0 && distinctPrimitives(list)) // draft-07: minItems 1, uniqueItems
	case "type":
		return metaType(v)
	case "multipleOf":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		return jsontext.ValidNumber(string(n)) && parseDecimal([]byte(n)).signum() > 0
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		n, ok := v.(json.Number)
		return ok && jsontext.ValidNumber(string(n))
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		return smallCount(v)
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return false
		}
		_, err := regexp.Compile(s)
		return err == nil
	case "required":
		return distinctStrings(v)
	case "properties", "$defs", "definitions", "additionalProperties", "items", "contentSchema",
		"prefixItems", "allOf", "anyOf", "oneOf":
		return w.subschemas(kw, v, loc)
	}
	// Any other keyword: the metaschema allows every value, and the
	// validator neither reads it nor looks inside it.
	return true
}

// subschemas checks a keyword that holds subschemas.
func (w *metaWalk) subschemas(kw string, v any, loc string) bool {
	switch kw {
	case "properties", "$defs", "definitions":
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for name, sub := range m {
			at := ""
			if !w.untracked {
				at = loc + "/" + kw + "/" + jsontext.Escape(name)
			}
			if !w.schema(sub, at, false) {
				return false
			}
		}
		return true
	case "additionalProperties", "items", "contentSchema":
		at := ""
		if !w.untracked {
			at = loc + "/" + kw
		}
		return w.schema(v, at, false)
	case "prefixItems", "allOf", "anyOf", "oneOf":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for i, sub := range list {
			at := ""
			if !w.untracked {
				at = loc + "/" + kw + "/" + strconv.Itoa(i)
				if kw != "prefixItems" {
					w.inPlace[loc] = append(w.inPlace[loc], at)
				}
			}
			if !w.schema(sub, at, false) {
				return false
			}
		}
		return true
	}
	return false
}

// draft07Unsure are the keywords draft-07's validator does not know as
// holding subschemas: a "$ref" into them is not followed the same way.
var draft07Unsure = map[string]bool{"$defs": true, "contentSchema": true, "prefixItems": true}

// distinctPrimitives reports whether a list holds only distinct strings,
// booleans and nulls (so that it is certainly unique in the validator's
// sense; a list with numbers or composites is not judged).
func distinctPrimitives(list []any) bool {
	seen := make(map[any]bool, len(list))
	for _, e := range list {
		switch e.(type) {
		case string, bool, nil:
		default:
			return false
		}
		if seen[e] {
			return false
		}
		seen[e] = true
	}
	return true
}

// metaType checks a "type": a simple type name, or a non-empty array of
// distinct ones.
func metaType(v any) bool {
	if s, ok := v.(string); ok {
		return metaSimpleTypes[s]
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 || !distinctStrings(v) {
		return false
	}
	for _, e := range list {
		if !metaSimpleTypes[e.(string)] {
			return false
		}
	}
	return true
}

// distinctStrings reports whether v is an array of distinct strings.
func distinctStrings(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	seen := make(map[string]bool, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// smallCount reports whether v is a non-negative integer written in plain
// digits, at most nine of them (a count the validator reads exactly).
func smallCount(v any) bool {
	n, ok := v.(json.Number)
	if !ok || len(n) == 0 || len(n) > 9 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// safeLocalRef reports whether a $ref is "#" or "#/…" spelt only with
// letters, digits and - . _ ~ / $ (so a valid URI reference whose fragment
// needs no percent-decoding).
func safeLocalRef(s string) bool {
	if s == "#" {
		return true
	}
	if len(s) < 2 || s[0] != '#' || s[1] != '/' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '.', c == '_', c == '~', c == '/', c == '$':
		default:
			return false
		}
	}
	return true
}
