package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// decodeSchema decodes a schema document with UseNumber, refusing trailing
// data, repeated keys in any object, numbers beyond MaxNumberExponent, and
// (as a *boundError) a document past MaxSchemaObjects, MaxSchemaValues,
// MaxSchemaKeyLength or MaxSchemaEnumValues. It also returns the root's
// property names in document order. Its time is linear in the document: the
// pointer of a value is only written out for a message.
func decodeSchema(data []byte) (doc any, props []string, err error) {
	if doc, props, ok := decodeSchemaTape(data); ok {
		return doc, props, nil
	}
	return decodeSchemaTokens(data)
}

// decodeSchemaTokens is decodeSchema with encoding/json's tokens: the
// reference decodeSchemaTape answers like, and the one that words refusals.
func decodeSchemaTokens(data []byte) (doc any, props []string, err error) {
	d := schemaDecoder{dec: json.NewDecoder(bytes.NewReader(data))}
	d.dec.UseNumber()
	doc, err = d.value()
	if err != nil {
		return nil, nil, err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, nil, errors.New("trailing data after the schema")
	}
	return doc, d.props, nil
}

// boundError is a schema past one of the limits, as the one issue of an
// invalid-schema error.
type boundError struct {
	keyword string // the limit's name, e.g. "maxEnum"
	path    string // JSON pointer into the schema
	msg     string
}

func (e *boundError) Error() string { return e.msg }

// schemaDecoder builds a schema document from encoding/json tokens, counting
// what the limits bound.
type schemaDecoder struct {
	dec     *json.Decoder
	props   []string
	objects int
	values  int
	enums   int
	path    []pathToken // where the value being decoded is
}

// pathToken is one step of a pointer: a member name, or an array index when
// index >= 0.
type pathToken struct {
	key   string
	index int
}

// pointer writes the JSON pointer of the value being decoded.
func (d *schemaDecoder) pointer() string {
	var b strings.Builder
	for _, t := range d.path {
		b.WriteByte('/')
		if t.index >= 0 {
			b.WriteString(strconv.Itoa(t.index))
		} else {
			b.WriteString(jsontext.Escape(t.key))
		}
	}
	return b.String()
}

// parentKey is the member name i steps up from the value being decoded ("" for
// an array item or the root).
func (d *schemaDecoder) parentKey(i int) string {
	if n := len(d.path) - 1 - i; n >= 0 && d.path[n].index < 0 {
		return d.path[n].key
	}
	return ""
}

// value decodes the next value.
func (d *schemaDecoder) value() (any, error) {
	tok, err := d.dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	d.values++
	if d.values > MaxSchemaValues {
		return nil, &boundError{"maxValues", "", fmt.Sprintf("parameters schema has more than %d JSON values", MaxSchemaValues)}
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return d.object()
		case '[':
			return d.array()
		}
		return nil, fmt.Errorf("unexpected %q at %s", rune(t), jsontext.Display(d.pointer()))
	case json.Number:
		if !numberInRange(string(t)) {
			return nil, fmt.Errorf("the number at %s has a decimal exponent beyond ±%d", jsontext.Display(d.pointer()), MaxNumberExponent)
		}
		return t, nil
	default:
		return t, nil // string, bool, nil
	}
}

// object decodes the members of an object whose '{' was just read.
func (d *schemaDecoder) object() (map[string]any, error) {
	d.objects++
	if d.objects > MaxSchemaObjects {
		return nil, &boundError{"maxObjects", "", fmt.Sprintf("parameters schema has more than %d JSON objects", MaxSchemaObjects)}
	}
	rootProps := len(d.path) == 1 && d.parentKey(0) == "properties"
	m := map[string]any{}
	for d.dec.More() {
		kt, err := d.dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := kt.(string)
		if !ok {
			return nil, fmt.Errorf("object key at %s is not a string", jsontext.Display(d.pointer()))
		}
		if len(k) > MaxSchemaKeyLength {
			return nil, d.nameTooLong("key", k)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("the object at %s repeats the key %q (RFC 7493, I-JSON)", jsontext.Display(d.pointer()), k)
		}
		if rootProps {
			d.props = append(d.props, k)
		}
		d.path = append(d.path, pathToken{key: k, index: -1})
		v, err := d.value()
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	if _, err := d.dec.Token(); err != nil {
		return nil, err
	}
	return m, nil
}

// array decodes the items of an array whose '[' was just read, counting enum
// entries and checking the length of property names listed in "required",
// "dependentRequired" and "dependencies".
func (d *schemaDecoder) array() ([]any, error) {
	isEnum := d.parentKey(0) == "enum"
	names := d.parentKey(0) == "required" || d.parentKey(1) == "dependentRequired" || d.parentKey(1) == "dependencies"
	a := []any{}
	for i := 0; d.dec.More(); i++ {
		d.path = append(d.path, pathToken{index: i})
		if isEnum {
			if d.enums++; d.enums > MaxSchemaEnumValues {
				return nil, &boundError{"maxEnum", d.pointer(), fmt.Sprintf(
					"parameters schema has more than %d enum values in all (%s holds the one past the limit)", MaxSchemaEnumValues, d.pointer())}
			}
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		if s, ok := v.(string); ok && names && len(s) > MaxSchemaKeyLength {
			return nil, d.nameTooLong("name", s)
		}
		d.path = d.path[:len(d.path)-1]
		a = append(a, v)
	}
	if _, err := d.dec.Token(); err != nil {
		return nil, err
	}
	return a, nil
}

// nameTooLong is the maxKeyLength refusal of a key (or a listed property
// name) in the value being decoded.
func (d *schemaDecoder) nameTooLong(what, name string) *boundError {
	at := d.pointer()
	return &boundError{"maxKeyLength", at, fmt.Sprintf("parameters schema has a %s of %d bytes at %s (%q), longer than the limit of %d",
		what, len(name), jsontext.Display(at), clipText(name, 32), MaxSchemaKeyLength)}
}
