package jsontext

import (
	"unicode/utf16"
	"unicode/utf8"
)

// AppendUnquoted appends the decoded body of a string literal (quotes
// included) that Tape.Parse accepted, exactly as encoding/json decodes it:
// a lone or mismatched surrogate escape becomes U+FFFD.
func AppendUnquoted(dst, lit []byte) []byte {
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(s[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, hex4(s[i+2:])); dec != utf8.RuneError {
						dst = utf8.AppendRune(dst, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // " \ /
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

// hex4 reads four hexadecimal digits (already checked).
func hex4(h []byte) rune {
	var r rune
	for _, c := range h[:4] {
		r = r<<4 | rune(hexValue(c))
	}
	return r
}
