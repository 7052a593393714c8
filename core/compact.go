package core

import (
	"bytes"
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// compactJSON appends to dst the JSON text src without insignificant white
// space, as json.Compact does, refusing with json.Compact's error what is
// not one JSON value. Text that is compact already (what JSON.stringify
// sends) is checked by one tape pass and copied, without encoding/json's
// scanner.
func compactJSON(dst *bytes.Buffer, src []byte) error {
	var tp jsontext.Tape
	if end, ok := tp.Parse(src, MaxSchemaDepth); ok && end == len(src) && compactAlready(src) {
		dst.Write(src)
		return nil
	}
	return json.Compact(dst, src)
}

// compactAlready reports whether src has no white space outside strings.
func compactAlready(src []byte) bool {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			i = jsontext.EndOfString(src, i) - 1
		case jsontext.IsSpace(c):
			return false
		}
	}
	return true
}
