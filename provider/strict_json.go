package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// The provider schema transforms (strict mode, Gemini's legacy subset) read
// a parameters schema into a tree that keeps every object's key order, so a
// transformed schema lists its properties, and any keyword it keeps, where
// the author wrote them: a model fills the properties in that order.

// schemaObj is one JSON object of a schema document, with its key order.
// Values are nil, bool, json.Number, string, []any or *schemaObj.
type schemaObj struct {
	keys []string
	vals map[string]any
	// typeWritten: its type was written by a transform that reported
	// doing so (Gemini legacy's type lists), so respelling it is not
	// reported again.
	typeWritten bool
}

func newSchemaObj() *schemaObj { return &schemaObj{vals: map[string]any{}} }

// get returns the value of key and whether it is present.
func (o *schemaObj) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// has reports whether key is present.
func (o *schemaObj) has(key string) bool {
	_, ok := o.vals[key]
	return ok
}

// set sets key, appending it when new and keeping its place when not.
func (o *schemaObj) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// del removes key.
func (o *schemaObj) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			return
		}
	}
}

// rename replaces key from by to in place, keeping its value and position.
func (o *schemaObj) rename(from, to string) {
	v, ok := o.vals[from]
	if !ok || o.has(to) {
		return
	}
	delete(o.vals, from)
	o.vals[to] = v
	for i, k := range o.keys {
		if k == from {
			o.keys[i] = to
		}
	}
}

// clone returns a shallow copy: the same values under a new key list and map.
func (o *schemaObj) clone() *schemaObj {
	c := &schemaObj{keys: append([]string(nil), o.keys...), vals: make(map[string]any, len(o.vals)), typeWritten: o.typeWritten}
	for k, v := range o.vals {
		c.vals[k] = v
	}
	return c
}

// str returns the string value of key, or "" when absent or not a string.
func (o *schemaObj) str(key string) string {
	s, _ := o.vals[key].(string)
	return s
}

// obj returns the object value of key, or nil.
func (o *schemaObj) obj(key string) *schemaObj {
	m, _ := o.vals[key].(*schemaObj)
	return m
}

var errSchemaDepth = errors.New("schema nested too deeply")

// parseSchemaTree reads one JSON value into a tree of *schemaObj, []any and
// scalars (numbers as json.Number). It refuses invalid JSON, trailing data,
// documents over MaxSchemaBytes and nesting over MaxSchemaDepth. A repeated
// key keeps its first position and its last value, as encoding/json does.
func parseSchemaTree(raw []byte) (any, error) {
	if len(raw) > core.MaxSchemaBytes {
		return nil, fmt.Errorf("schema is %d bytes, more than %d", len(raw), core.MaxSchemaBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseSchemaValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("schema has data after its JSON value")
	}
	return v, nil
}

func parseSchemaValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= core.MaxSchemaDepth {
		return nil, errSchemaDepth
	}
	if d == '[' {
		list := []any{}
		for dec.More() {
			v, err := parseSchemaValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	}
	o := newSchemaObj()
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		v, err := parseSchemaValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		o.set(kt.(string), v)
	}
	_, err = dec.Token()
	return o, err
}

// appendSchemaTree appends v as compact JSON: keys in order, no HTML
// escaping, numbers as their text.
func appendSchemaTree(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...)
	case bool:
		if x {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case json.Number:
		return append(buf, x...)
	case string:
		return jsontext.AppendString(buf, x)
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendSchemaTree(buf, e)
		}
		return append(buf, ']')
	case *schemaObj:
		buf = append(buf, '{')
		for i, k := range x.keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = jsontext.AppendString(buf, k)
			buf = append(buf, ':')
			buf = appendSchemaTree(buf, x.vals[k])
		}
		return append(buf, '}')
	}
	return append(buf, "null"...)
}

// schemaTreeEqual reports whether two trees are the same JSON value (object
// key order ignored, numbers compared by text).
func schemaTreeEqual(a, b any) bool {
	switch x := a.(type) {
	case *schemaObj:
		y, ok := b.(*schemaObj)
		if !ok || len(x.vals) != len(y.vals) {
			return false
		}
		for k, v := range x.vals {
			w, ok := y.vals[k]
			if !ok || !schemaTreeEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !schemaTreeEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// pointerTo returns the JSON Pointer path extended by tokens.
func pointerTo(path string, tokens ...string) string {
	return jsontext.Join(path, tokens...)
}
