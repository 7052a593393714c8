package core

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// loneSurrogate finds the first escaped lone UTF-16 surrogate ("\ud800"
// without its pair) in data, valid JSON text, and describes it: the JSON
// pointer of the value holding it, and a message naming the string (or
// key), the escape and its UTF-16 index there. ok is false when there is
// none. encoding/json would read such an escape as U+FFFD, so a string that
// held one would be validated and used as another string: it is refused
// (docs/using.md, "Text").
func loneSurrogate(data []byte, what string) (ptr, msg string, ok bool) {
	off := jsontext.LoneSurrogate(data)
	if off < 0 {
		return "", "", false
	}
	ptr, key, index, found := jsontext.StringAt(data, off)
	kind := "string"
	if key {
		kind = "a key of the object"
	}
	where := ptr
	if where == "" {
		where = "the top level"
	}
	if !found {
		kind, index = "text", off
	}
	msg = fmt.Sprintf("%s: the %s at %s holds a lone surrogate (%s) at index %d, which is not Unicode text; "+
		"send well-formed strings (in JS, str.toWellFormed() replaces a lone surrogate with U+FFFD)",
		what, kind, where, data[off:off+6], index)
	return ptr, msg, true
}
