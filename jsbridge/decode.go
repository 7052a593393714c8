package jsbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/toolgate/toolgate/core"
)

// decodeStrict reads payload, the JSON options of an op, into v: one JSON
// value, no member v does not name, numbers kept as written. It refuses
// anything else with unsupported-type, in words a JS caller can act on
// (what, the option's path, the kind wanted and the kind given), never
// encoding/json's, which name Go types.
func decodeStrict(payload []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return core.Errorf(core.CodeUnsupportedType, "", "%s: %s", what, decodeProblem(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return core.Errorf(core.CodeUnsupportedType, "", "%s: trailing data after the JSON value", what)
	}
	return nil
}

// decodeProblem says what encoding/json refused, in our words.
func decodeProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return fmt.Sprintf("must be %s, got %s", jsonKind(typeErr.Type), article(typeErr.Value))
		}
		return fmt.Sprintf("%q must be %s, got %s", typeErr.Field, jsonKind(typeErr.Type), article(typeErr.Value))
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("not valid JSON at byte %d", syntaxErr.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "not valid JSON: the text ends early"
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown option " + name
	}
	return strings.TrimPrefix(msg, "json: ")
}

// jsonKind names the JSON kind a Go type is read from.
func jsonKind(t reflect.Type) string {
	if t == reflect.TypeFor[json.Number]() {
		return "a number"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "JSON"
}

// article puts "a" or "an" before a JSON kind as encoding/json names it
// ("number", "string", "bool", "array", "object", or "number 1.5").
func article(kind string) string {
	kind = strings.Replace(kind, "bool", "boolean", 1)
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}
