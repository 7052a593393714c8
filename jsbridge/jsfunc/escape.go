package jsfunc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// decodeJSEscape decodes the escape sequence whose backslash is at s[i],
// writing its value to b; it returns the index after it, or a message when
// the escape is malformed. Legacy octal escapes are refused in templates.
func decodeJSEscape(b *strings.Builder, s string, i int, template bool) (int, string) {
	j := i + 1
	if j >= len(s) {
		return j, "unterminated escape sequence"
	}
	switch c := s[j]; c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '\n':
	case '\r':
		if j+1 < len(s) && s[j+1] == '\n' {
			j++
		}
	case '0', '1', '2', '3', '4', '5', '6', '7':
		if c == '0' && (j+1 >= len(s) || !isJSDigit(s[j+1])) {
			b.WriteByte(0)
			break
		}
		if template {
			return j, "octal escape sequence in a template literal"
		}
		v := int(c - '0')
		more := 2
		if c > '3' {
			more = 1
		}
		for ; more > 0 && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '7'; more-- {
			j++
			v = v*8 + int(s[j]-'0')
		}
		b.WriteRune(rune(v))
	case '8', '9':
		if template {
			return j, "\\8 or \\9 escape in a template literal"
		}
		b.WriteByte(c)
	case 'x':
		v, ok := jsHexValue(s, j+1, j+3)
		if !ok {
			return j, "malformed \\x escape sequence"
		}
		b.WriteRune(rune(v))
		j += 2
	case 'u':
		r, next, ok := jsUnicodeEscape(s, j)
		if !ok {
			return j, "malformed \\u escape sequence"
		}
		j = next - 1
		if isHighSurrogate(r) && next+1 < len(s) && s[next] == '\\' && s[next+1] == 'u' {
			if lo, after, ok := jsUnicodeEscape(s, next+1); ok && isLowSurrogate(lo) {
				r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
				j = after - 1
			}
		}
		if isHighSurrogate(r) || isLowSurrogate(r) {
			// A lone surrogate has no UTF-8 form: keep it as its
			// three-byte (WTF-8) sequence so appendStringJSON can write
			// it as JSON.stringify does (\udXXX).
			b.WriteByte(0xed)
			b.WriteByte(byte(0x80 | (r>>6)&0x3f))
			b.WriteByte(byte(0x80 | r&0x3f))
			break
		}
		b.WriteRune(r)
	default:
		r, size := utf8.DecodeRuneInString(s[j:])
		if r != '\u2028' && r != '\u2029' { // line continuations
			b.WriteString(s[j : j+size])
		}
		j += size - 1
	}
	return j + 1, ""
}

func isHighSurrogate(r rune) bool { return r >= 0xd800 && r < 0xdc00 }
func isLowSurrogate(r rune) bool  { return r >= 0xdc00 && r < 0xe000 }

// jsHexValue reads s[from:to] as hexadecimal.
func jsHexValue(s string, from, to int) (int, bool) {
	if to > len(s) || from >= to {
		return 0, false
	}
	v := 0
	for i := from; i < to; i++ {
		d, ok := jsHexDigit(s[i])
		if !ok {
			return 0, false
		}
		v = v*16 + d
	}
	return v, true
}

func jsHexDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10, true
	}
	return 0, false
}

// jsUnicodeEscape reads the escape whose 'u' is at s[j]: \uXXXX or \u{X…}. It
// returns the code point and the index after the escape.
func jsUnicodeEscape(s string, j int) (rune, int, bool) {
	if j+1 < len(s) && s[j+1] == '{' {
		v, k := 0, j+2
		for ; k < len(s); k++ {
			d, ok := jsHexDigit(s[k])
			if !ok {
				break
			}
			if v = v*16 + d; v > unicode.MaxRune {
				return 0, 0, false
			}
		}
		if k == j+2 || k >= len(s) || s[k] != '}' {
			return 0, 0, false
		}
		return rune(v), k + 1, true
	}
	v, ok := jsHexValue(s, j+1, j+5)
	return rune(v), j + 5, ok
}
