package core

import (
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The fast way to decode a schema document: one pass of the tape
// tokenizer, then the tree built from the tokens, without encoding/json's
// Decoder.Token (a third of a tool's creation under WebAssembly). It
// answers only for a document the slow decoder would accept, and then with
// the same tree; a document it is unsure of (not JSON, trailing data, an
// escaped or repeated key, a number or a limit to report) goes to
// schemaDecoder, which finds the problem and words it as before.

// decodeSchemaTape is decodeSchema for a document within every bound, or
// false when schemaDecoder must decide.
func decodeSchemaTape(data []byte) (doc any, props []string, ok bool) {
	var tp jsontext.Tape
	end, ok := tp.Parse(data, MaxSchemaDepth)
	if !ok || !jsontext.OnlySpace(data[end:]) {
		return nil, nil, false
	}
	d, ok := buildSchemaTape(data, tp.Tokens)
	return d.doc, d.props, ok
}

// decodedSchema is a schema document decoded, with what its keys tell
// before anyone walks it.
type decodedSchema struct {
	doc   any
	props []string // the root's property names, in document order
	keys  docKeys  // which kinds of keyword appear as a key anywhere
}

// docKeys says which kinds of keyword appear as a key of any object of a
// document (at a schema position or not: a property named "$ref" counts),
// so that a walk that could only find what is absent can be skipped.
type docKeys uint8

const (
	// keysWalk: a keyword through which one value meets several subschemas
	// or the same subschema by several paths (see walkKeyword).
	keysWalk docKeys = 1 << iota
	// keysRef: a keyword onlyLocalRefs looks at (see refKeyword).
	keysRef
	// keysAll is what a decoder that does not look says: anything may appear.
	keysAll = keysWalk | keysRef
)

// keyKinds is the docKeys of one key.
func keyKinds(k string) docKeys {
	var d docKeys
	if walkKeyword(k) {
		d |= keysWalk
	}
	if refKeyword(k) {
		d |= keysRef
	}
	return d
}

// buildSchemaTape builds the document of a parsed schema text, or is false
// when a bound is passed (schemaDecoder then words the refusal).
func buildSchemaTape(data []byte, toks []jsontext.Token) (decodedSchema, bool) {
	b := tapeBuilder{data: data, toks: toks}
	doc, _, ok := b.value(0, "", "", 0)
	if !ok {
		return decodedSchema{}, false
	}
	return decodedSchema{doc: doc, props: b.props, keys: b.keys}, true
}

// tapeBuilder builds the tree of a tape, counting what the limits bound.
type tapeBuilder struct {
	data    []byte
	toks    []jsontext.Token
	props   []string
	keys    docKeys
	objects int
	values  int
	enums   int
}

// value builds the value at token k, depth levels down, and returns the
// token after it. key is its member name ("" for an array item) and parent
// its container's, as schemaDecoder's parentKey(0) and parentKey(1).
func (b *tapeBuilder) value(k int32, key, parent string, depth int) (any, int32, bool) {
	t := b.toks[k]
	if b.values++; b.values > MaxSchemaValues {
		return nil, 0, false
	}
	switch t.Kind {
	case jsontext.TokObject:
		return b.object(k, key, depth)
	case jsontext.TokArray:
		return b.array(k, key, parent, depth)
	case jsontext.TokString:
		if t.Flags&jsontext.FlagEscaped == 0 {
			if v, ok := typeNames[string(b.data[t.Start+1:t.End-1])]; ok {
				return v, k + 1, true // boxed once: no allocation for the commonest values
			}
		}
		return b.str(t), k + 1, true
	case jsontext.TokNumber:
		s := string(b.data[t.Start:t.End])
		// without an exponent and within a thousand bytes, a literal is in range
		if (t.Flags&jsontext.FlagExponent != 0 || len(s) > MaxNumberExponent) && !numberInRange(s) {
			return nil, 0, false
		}
		return json.Number(s), k + 1, true
	case jsontext.TokTrue:
		return true, k + 1, true
	case jsontext.TokFalse:
		return false, k + 1, true
	}
	return nil, k + 1, true
}

// str is the decoded text of a string token.
func (b *tapeBuilder) str(t jsontext.Token) string {
	lit := b.data[t.Start:t.End]
	if t.Flags&jsontext.FlagEscaped == 0 {
		return string(lit[1 : len(lit)-1]) // valid UTF-8 (checked first), as encoding/json keeps it
	}
	return string(jsontext.AppendUnquoted(nil, lit))
}

// object builds the object at token k, the value of member key.
func (b *tapeBuilder) object(k int32, key string, depth int) (any, int32, bool) {
	rootProps := depth == 1 && key == "properties"
	if b.objects++; b.objects > MaxSchemaObjects {
		return nil, 0, false
	}
	n := b.toks[k].N
	m := make(map[string]any, n)
	next := k + 1
	for range n {
		kt := b.toks[next]
		name := keyName(b.data[kt.Start+1 : kt.End-1]) // never escaped: Parse declines those
		if len(name) > MaxSchemaKeyLength {
			return nil, 0, false
		}
		b.keys |= keyKinds(name)
		if rootProps {
			b.props = append(b.props, name)
		}
		v, after, ok := b.value(next+1, name, key, depth+1)
		if !ok {
			return nil, 0, false
		}
		m[name] = v
		next = after
	}
	return m, next, true
}

// array builds the array at token k, the value of member key of a
// container that is itself the value of member parent (or "").
func (b *tapeBuilder) array(k int32, key, parent string, depth int) (any, int32, bool) {
	isEnum := key == "enum"
	names := key == "required" || parent == "dependentRequired" || parent == "dependencies"
	n := b.toks[k].N
	a := make([]any, 0, n)
	next := k + 1
	for range n {
		if isEnum {
			if b.enums++; b.enums > MaxSchemaEnumValues {
				return nil, 0, false
			}
		}
		v, after, ok := b.value(next, "", key, depth+1)
		if !ok {
			return nil, 0, false
		}
		if s, isStr := v.(string); isStr && names && len(s) > MaxSchemaKeyLength {
			return nil, 0, false
		}
		a = append(a, v)
		next = after
	}
	return a, next, true
}

// typeNames are the values of "type", boxed once.
var typeNames = map[string]any{
	"object": "object", "string": "string", "integer": "integer", "number": "number",
	"boolean": "boolean", "array": "array", "null": "null",
}

// keyName is a key as a string, the keywords of tool schemas without an
// allocation.
func keyName(b []byte) string {
	switch string(b) { // compiled as comparisons: no conversion is made
	case "type":
		return "type"
	case "properties":
		return "properties"
	case "description":
		return "description"
	case "required":
		return "required"
	case "items":
		return "items"
	case "enum":
		return "enum"
	case "default":
		return "default"
	case "additionalProperties":
		return "additionalProperties"
	case "$schema":
		return "$schema"
	case "title":
		return "title"
	case "format":
		return "format"
	case "minimum":
		return "minimum"
	case "maximum":
		return "maximum"
	case "minLength":
		return "minLength"
	case "maxLength":
		return "maxLength"
	case "anyOf":
		return "anyOf"
	case "$ref":
		return "$ref"
	case "$defs":
		return "$defs"
	}
	return string(b)
}
