package jsontext

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
	"unsafe"
)

// AppendString appends s as a JSON string literal, byte for byte as
// encoding/json writes it without HTML escaping (<, > and & stay as they
// are): the short escapes, \u00XX for other control characters, \u2028
// and \u2029, and U+FFFD for each byte of invalid UTF-8. It uses no
// encoder (encoding/json's reflection is slow to start under
// WebAssembly, and every tool's info writes strings).
func AppendString(buf []byte, s string) []byte {
	// AppendQuoted only reads its text: s's bytes are borrowed, not copied.
	return AppendQuoted(buf, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// AppendStrings appends a string list as json.Marshal writes a []string
// (null for nil), each string as AppendString writes it.
func AppendStrings(buf []byte, list []string) []byte {
	if list == nil {
		return append(buf, "null"...)
	}
	buf = append(buf, '[')
	for i, s := range list {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = AppendString(buf, s)
	}
	return append(buf, ']')
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

// AppendQuoted appends the valid UTF-8 text s as a JSON string literal, byte
// for byte as AppendString writes it (encoding/json's escapes without HTML
// escaping), without an encoder.
func AppendQuoted(buf, s []byte) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainByte[c] {
				i++
				continue
			}
			buf = AppendEscapedByte(append(buf, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			if r == utf8.RuneError {
				buf = append(buf, `\ufffd`...)
			} else {
				buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xF])
			}
			start = i + size
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// AppendEscapedByte appends the JSON escape of c, an ASCII byte that cannot
// stand in a JSON string as it is (a quote, a backslash or a control
// character), as encoding/json and JSON.stringify write it: the short form
// where there is one, else \u00XX. It escapes any other byte the long way
// too, so callers pass only those.
func AppendEscapedByte(buf []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	switch c {
	case '\\', '"':
		return append(buf, '\\', c)
	case '\b':
		return append(buf, '\\', 'b')
	case '\f':
		return append(buf, '\\', 'f')
	case '\n':
		return append(buf, '\\', 'n')
	case '\r':
		return append(buf, '\\', 'r')
	case '\t':
		return append(buf, '\\', 't')
	}
	return append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}
