package jsontext

import (
	"bytes"
	"encoding/json"
)

// AppendString appends s as a JSON string literal, without HTML escaping
// (<, > and & stay as they are); invalid UTF-8 becomes U+FFFD, as
// encoding/json writes it. Plain printable ASCII is copied without an
// encoder.
func AppendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			data, _ := Marshal(s) // a string always marshals
			return append(buf, data...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// Marshal is json.Marshal without HTML escaping: <, > and & are written as
// they are, not as \u003c, \u003e and \u0026.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
