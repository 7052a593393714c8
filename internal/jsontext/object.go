package jsontext

import (
	"bytes"
	"encoding/json"
)

// Member is one key and raw value of a JSON object, in order.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Split splits a JSON object into its members in order; a repeated key
// keeps its first position and its last value (as JSON.parse does). It
// validates once (Valid) and then slices the bytes without decoding
// values: it sits on the hot path of every call. false means obj is not one
// valid JSON object.
func Split(obj []byte) ([]Member, bool) {
	if !Valid(obj) {
		return nil, false
	}
	return SplitValid(obj)
}

// SplitValid is Split of bytes already known to be valid JSON (a value of
// a document Split or json.Valid accepted): it does not validate them
// again. false means obj is not an object.
func SplitValid(obj []byte) ([]Member, bool) {
	i := SkipSpace(obj, 0)
	if i >= len(obj) {
		return nil, false
	}
	if obj[i] != '{' {
		return nil, false
	}
	i++
	ms := make([]Member, 0, 4)
	for {
		i = SkipSpace(obj, i)
		switch obj[i] {
		case '}':
			return ms, true
		case ',':
			i = SkipSpace(obj, i+1)
		}
		kend := EndOfString(obj, i)
		key := Unquote(obj[i:kend])
		i = SkipSpace(obj, kend) + 1 // the colon
		i = SkipSpace(obj, i)
		vend := EndOfValue(obj, i)
		v := json.RawMessage(obj[i:vend])
		i = vend
		dup := false
		for k := range ms {
			if ms[k].Key == key {
				ms[k].Value = v
				dup = true
				break
			}
		}
		if !dup {
			ms = append(ms, Member{Key: key, Value: v})
		}
	}
}

// Lookup returns the raw value of key in a JSON object; false when obj is
// not a valid object or has no such key.
func Lookup(obj []byte, key string) (json.RawMessage, bool) {
	ms, ok := Split(obj)
	if !ok {
		return nil, false
	}
	for _, m := range ms {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Replace returns obj with the value of key replaced in place, or appended
// when obj has no such key; every other member keeps its bytes and its
// position. value must be valid JSON. false means obj is not a valid object.
func Replace(obj []byte, key string, value json.RawMessage) (json.RawMessage, bool) {
	ms, ok := Split(obj)
	if !ok {
		return nil, false
	}
	found := false
	for i := range ms {
		if ms[i].Key == key {
			ms[i].Value = value
			found = true
		}
	}
	if !found {
		ms = append(ms, Member{Key: key, Value: value})
	}
	return WriteObject(ms), true
}

// WriteObject writes members as one JSON object, in their order (each Value
// valid JSON).
func WriteObject(ms []Member) json.RawMessage {
	b := []byte{'{'}
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, m.Key)
		b = append(b, ':')
		b = append(b, m.Value...)
	}
	return append(b, '}')
}

// Members reads a JSON object (surrounding whitespace allowed) into a map
// of raw values, a repeated key keeping its last value; false when raw is
// not one valid object.
func Members(raw []byte) (map[string]json.RawMessage, bool) {
	r := bytes.TrimSpace(raw)
	if len(r) == 0 || r[0] != '{' {
		return nil, false
	}
	ms, ok := Split(r)
	if !ok {
		return nil, false
	}
	m := make(map[string]json.RawMessage, len(ms))
	for _, x := range ms {
		m[x.Key] = x.Value
	}
	return m, true
}

// StringMember returns m[key] when it is a JSON string, else "".
func StringMember(m map[string]json.RawMessage, key string) string {
	raw, ok := m[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// Absent reports whether raw is empty, only whitespace, or JSON null.
func Absent(raw []byte) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}
