package jsontext

import (
	"unicode/utf16"
	"unicode/utf8"
)

// UnquotedLen is the length in bytes of the decoded body of the string
// literal lit (quotes included), as AppendUnquoted would write it, counted
// without decoding: one pass over lit, no allocation. A size limit can so
// be checked on a string's text before anything copies it. On text that is
// no valid literal it still returns (a count of what it could read) and
// never panics; bytes that are not UTF-8 count one each, so the result
// never exceeds what encoding/json would decode.
func UnquotedLen(lit []byte) int {
	if len(lit) < 2 {
		return 0
	}
	s := lit[1 : len(lit)-1]
	n := 0
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			n++
			i++
			continue
		}
		if i+1 >= len(s) {
			return n
		}
		if s[i+1] != 'u' || i+6 > len(s) {
			n++
			i += 2
			continue
		}
		r := hex4(s[i+2:])
		i += 6
		if utf16.IsSurrogate(r) {
			if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' && utf16.DecodeRune(r, hex4(s[i+2:])) != utf8.RuneError {
				n += 4
				i += 6
				continue
			}
			r = utf8.RuneError
		}
		if r < 0 { // not four hexadecimal digits
			r = utf8.RuneError
		}
		n += utf8.RuneLen(r)
	}
	return n
}
