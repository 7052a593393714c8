package gostruct

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// structSchema implements Schema (see its documentation).
func structSchema(v any) (out json.RawMessage, err error) {
	if v == nil {
		return nil, core.Errorf(core.CodeInvalidTool, "", "Schema got nil; want a struct value, pointer or reflect.Type")
	}
	t, ok := v.(reflect.Type)
	if !ok {
		t = reflect.TypeOf(v)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, core.Errorf(core.CodeInvalidTool, "", "Schema got %s (kind %s); want a struct value, pointer or reflect.Type", t, t.Kind())
	}
	defer func() {
		if r := recover(); r != nil {
			out = nil
			err = &core.Error{Code: core.CodeInvalidTool,
				Message: fmt.Sprintf("Schema cannot derive a JSON Schema for %s: %v", t, r),
				Cause:   fmt.Errorf("%v", r)}
		}
	}()

	recursive := isRecursiveType(t)
	r := &jsonschema.Reflector{
		Anonymous:      true,
		DoNotReference: !recursive,
		ExpandedStruct: !recursive,
	}
	s := r.ReflectFromType(t)
	if recursive && s.Ref != "" {
		name := strings.TrimPrefix(s.Ref, "#/$defs/")
		if def, ok := s.Definitions[name]; ok && def != nil {
			top := *def
			top.Definitions = s.Definitions
			s = &top
		}
	}
	s.Version = ""
	s.ID = ""
	if !recursive {
		s.Definitions = nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, &core.Error{Code: core.CodeInvalidTool, Cause: err,
			Message: fmt.Sprintf("Schema cannot encode the JSON Schema of %s: %v", t, err)}
	}
	return reorderTopLevel(t, raw)
}

// topLevelFirst are the keys structSchema puts first, in this order.
var topLevelFirst = []string{"type", "description", "properties", "required", "additionalProperties"}

// reorderTopLevel checks that raw is an object schema and rewrites its
// top-level key order (see structSchema).
func reorderTopLevel(t reflect.Type, raw []byte) (json.RawMessage, error) {
	keys, vals, err := objectMembers(raw)
	if err != nil || vals["type"] == nil || string(vals["type"]) != `"object"` {
		return nil, core.Errorf(core.CodeInvalidTool, "", "Schema: the JSON Schema of %s is not an object schema: %s", t, raw)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	write := func(k string) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(jsontext.AppendString(b.AvailableBuffer(), k))
		b.WriteByte(':')
		b.Write(vals[k])
	}
	placed := map[string]bool{"$defs": true}
	for _, k := range topLevelFirst {
		placed[k] = true
		if vals[k] != nil {
			write(k)
		}
	}
	for _, k := range keys {
		if !placed[k] {
			write(k)
		}
	}
	if vals["$defs"] != nil {
		write("$defs")
	}
	b.WriteByte('}')
	return json.RawMessage(b.Bytes()), nil
}

// objectMembers splits a JSON object into its keys in order and their raw
// values (the last value wins for a repeated key).
func objectMembers(raw []byte) ([]string, map[string]json.RawMessage, error) {
	ms, ok := jsontext.Split(raw)
	if !ok {
		return nil, nil, fmt.Errorf("not a JSON object")
	}
	keys := make([]string, len(ms))
	vals := make(map[string]json.RawMessage, len(ms))
	for i, m := range ms {
		keys[i] = m.Key
		vals[m.Key] = m.Value
	}
	return keys, vals, nil
}

// aliasSchema mirrors invopop's JSONSchemaAlias hook.
type aliasSchema interface{ JSONSchemaAlias() any }

// customSchema mirrors invopop's JSONSchema hook.
type customSchema interface{ JSONSchema() *jsonschema.Schema }

// isRecursiveType reports whether a struct type reaches itself through its
// fields (following pointers, slices, arrays, maps and JSONSchemaAlias), in
// which case invopop's DoNotReference mode would never terminate.
func isRecursiveType(root reflect.Type) bool {
	const (
		visiting = 1
		done     = 2
	)
	state := map[reflect.Type]int{}
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() == reflect.Interface || t.Implements(reflect.TypeFor[customSchema]()) {
			return false
		}
		if t.Implements(reflect.TypeFor[aliasSchema]()) {
			alias := reflect.TypeOf(reflect.New(t).Elem().Interface().(aliasSchema).JSONSchemaAlias())
			if alias == nil || alias == t {
				return false
			}
			return walk(alias)
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array:
			return walk(t.Elem())
		case reflect.Map:
			return walk(t.Elem())
		case reflect.Struct:
		default:
			return false
		}
		switch state[t] {
		case visiting:
			return true
		case done:
			return false
		}
		state[t] = visiting
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if (!f.IsExported() && !f.Anonymous) || strings.Split(f.Tag.Get("json"), ",")[0] == "-" {
				continue
			}
			if walk(f.Type) {
				return true
			}
		}
		state[t] = done
		return false
	}
	return walk(root)
}

// Schema returns the JSON Schema (parameters object) of a Go struct
// value, pointer or reflect.Type, via invopop/jsonschema: the analogue of
// Pydantic's model_json_schema(). The result is
// {"type":"object","properties":{...},"required":[...],"additionalProperties":false}:
//   - invopop's defaults decide the rest: a field is required unless its json
//     tag has omitempty or omitzero ("required" is omitted when no field is,
//     as Pydantic omits it); names follow json tags; `jsonschema:"..."` tags
//     apply; an interface field is the schema true;
//   - every struct, the top level included, has "additionalProperties": false
//     (invopop's default; Pydantic emits nothing unless extra is forbidden);
//   - nested structs are inlined (no $ref, no $defs) and there is no $schema
//     or $id; only a recursive type, which cannot be inlined, keeps its named
//     structs under a top-level "$defs", referenced as "#/$defs/<TypeName>";
//   - top-level keys come in the order type, description, properties,
//     required, additionalProperties, invopop's other keys, $defs; nested
//     schemas keep invopop's order.
//
// It refuses with invalid-tool (never panicking): nil; anything that is not a
// struct after following pointers; a struct whose schema is not an object
// (time.Time, a custom JSONSchema method); a type invopop cannot reflect
// (channels, functions, complex numbers) or whose schema hooks panic.
func Schema(v any) (json.RawMessage, error) {
	return structSchema(v)
}
