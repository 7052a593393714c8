package jsontext

import (
	"bytes"
	"strconv"
	"unicode/utf16"
)

// LoneSurrogate returns the offset in data, JSON text, of the first \u
// escape that is a UTF-16 surrogate without its pair (a high one not
// followed by a low one, or a low one alone), or -1 when there is none.
// encoding/json decodes such an escape to U+FFFD, so a string that held one
// would be checked and used as another; callers refuse it instead.
func LoneSurrogate(data []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\\')
		if j < 0 {
			return -1
		}
		i += j
		if i+1 >= len(data) {
			return -1
		}
		if data[i+1] != 'u' {
			i += 2
			continue
		}
		r, ok := readHex4(data, i+2)
		if !ok {
			i += 2
			continue
		}
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			if i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
				if lo, ok := readHex4(data, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 12
					continue
				}
			}
			return i
		case r >= 0xDC00 && r <= 0xDFFF:
			return i
		}
		i += 6
	}
}

// readHex4 reads the four hex digits at data[i:i+4], if they are.
func readHex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		v := hexValue(c)
		if v < 0 {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// StringAt locates offset, a byte offset inside a string literal of data
// (valid JSON): the JSON pointer of the value that holds the string (for a
// key, of the object whose key it is), whether the string is a key, and the
// UTF-16 index of offset within the decoded string. ok is false when offset
// is not inside a string.
func StringAt(data []byte, offset int) (ptr string, key bool, index int, ok bool) {
	w := stringFinder{b: data, at: offset}
	w.value("")
	return w.ptr, w.key, w.index, w.found
}

type stringFinder struct {
	b     []byte
	i, at int
	ptr   string
	key   bool
	index int
	found bool
}

func (w *stringFinder) value(ptr string) {
	w.i = SkipSpace(w.b, w.i)
	if w.i >= len(w.b) || w.found {
		return
	}
	switch w.b[w.i] {
	case '"':
		w.str(ptr, false)
	case '{':
		w.members('}', func(int) {
			start := w.i
			w.str(ptr, true)
			if w.found {
				return
			}
			name := Unquote(w.b[start:w.i])
			w.i = SkipSpace(w.b, w.i) + 1 // the colon
			w.value(Join(ptr, name))
		})
	case '[':
		w.members(']', func(n int) { w.value(Join(ptr, strconv.Itoa(n))) })
	default:
		w.i = EndOfValue(w.b, w.i)
	}
}

// members reads the members or items of the container at w.i up to its
// closing byte, calling each at the start of each with its index, until the
// string is found.
func (w *stringFinder) members(closing byte, each func(n int)) {
	w.i++
	for n := 0; !w.found; {
		w.i = SkipSpace(w.b, w.i)
		if w.i >= len(w.b) || w.b[w.i] == closing {
			w.i++
			return
		}
		if w.b[w.i] == ',' {
			w.i++
			continue
		}
		each(n)
		n++
	}
}

// str skips the string literal at w.i, noting it when it holds w.at.
func (w *stringFinder) str(ptr string, key bool) {
	start := w.i
	w.i = EndOfString(w.b, w.i)
	if w.at > start && w.at < w.i {
		prefix := Unquote(append(bytes.Clone(w.b[start:w.at]), '"'))
		w.ptr, w.key, w.index, w.found = ptr, key, len(utf16.Encode([]rune(prefix))), true
	}
}
