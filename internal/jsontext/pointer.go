package jsontext

import "strings"

// JSON pointers (RFC 6901): "" is the whole document, "/a/0" member "a"'s
// first item; "~" and "/" in a token are written "~0" and "~1".

// Escape escapes one pointer token.
func Escape(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	token = strings.ReplaceAll(token, "~", "~0")
	return strings.ReplaceAll(token, "/", "~1")
}

// Unescape undoes Escape.
func Unescape(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	token = strings.ReplaceAll(token, "~1", "/")
	return strings.ReplaceAll(token, "~0", "~")
}

// Join appends tokens, escaped, to the pointer base.
func Join(base string, tokens ...string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(Escape(t))
	}
	return b.String()
}

// Tokens splits a pointer into its unescaped tokens (nil for "").
func Tokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, p := range parts {
		parts[i] = Unescape(p)
	}
	return parts
}

// Index parses a token as an array index: decimal digits, no leading zero,
// at most nine digits.
func Index(tok string) (int, bool) {
	if tok == "" || len(tok) > 9 || (len(tok) > 1 && tok[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return 0, false
		}
		n = n*10 + int(tok[i]-'0')
	}
	return n, true
}

// At returns the value at ptr in a decoded document (maps and slices), or
// nil when there is none.
func At(doc any, ptr string) any {
	cur := doc
	for _, tok := range Tokens(ptr) {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			i, ok := Index(tok)
			if !ok || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// Less orders pointers token by token, array indexes numerically, a prefix
// first.
func Less(a, b string) bool {
	ta, tb := Tokens(a), Tokens(b)
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if ta[i] == tb[i] {
			continue
		}
		na, okA := Index(ta[i])
		nb, okB := Index(tb[i])
		if okA && okB {
			return na < nb
		}
		return ta[i] < tb[i]
	}
	return len(ta) < len(tb)
}

// Display shows a pointer in a message, naming the root "the root".
func Display(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}
