package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The JSON type names Kind and KindOf return, as JSON Schema spells them
// (there is no "integer": that is a question about a number's text), and
// Nothing for absent text.
const (
	Object  = "object"
	Array   = "array"
	String  = "string"
	Boolean = "boolean"
	Null    = "null"
	Number  = "number"
	Nothing = "nothing"
)

// Kind names the JSON type of raw JSON text by its first non-space byte, or
// Nothing when there is none. It does not validate the text.
func Kind(raw []byte) string {
	r := bytes.TrimLeft(raw, " \t\r\n")
	if len(r) == 0 {
		return Nothing
	}
	switch r[0] {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Boolean
	case 'n':
		return Null
	}
	return Number
}

// KindOf names the JSON type of a decoded value: what encoding/json builds
// (with or without UseNumber) and Go's numeric types; any other Go value is
// named by its Go type (%T).
func KindOf(v any) string {
	switch v.(type) {
	case nil:
		return Null
	case bool:
		return Boolean
	case string:
		return String
	case json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return Number
	case []any:
		return Array
	case map[string]any:
		return Object
	}
	return fmt.Sprintf("%T", v)
}

// Described is a kind with its article, for messages: "an object", "an
// array", "a string", "a boolean", "a number", and "null" and "nothing"
// as they are.
func Described(kind string) string {
	switch kind {
	case Object, Array:
		return "an " + kind
	case String, Boolean, Number:
		return "a " + kind
	}
	return kind
}

// LowerASCII lower-cases ASCII letters only. strings.ToLower would also
// fold the Kelvin sign (U+212A) to "k", making a non-ASCII key or host look
// like an ASCII one; JSON keys and hosts are compared byte for byte.
func LowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}
