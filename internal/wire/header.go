package wire

// Header is a set of HTTP header fields, keyed by canonical name as in
// net/http ("content-type" is stored as "Content-Type"). Its methods
// canonicalize the key they are given; indexing the map directly does not.
type Header map[string][]string

// Get returns the first value of key, or "".
func (h Header) Get(key string) string {
	if v := h[CanonicalHeaderKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Values returns the values of key, or nil; the slice is the header's own.
func (h Header) Values(key string) []string {
	return h[CanonicalHeaderKey(key)]
}

// Set replaces the values of key with value.
func (h Header) Set(key, value string) {
	h[CanonicalHeaderKey(key)] = []string{value}
}

// Add appends value to the values of key.
func (h Header) Add(key, value string) {
	k := CanonicalHeaderKey(key)
	h[k] = append(h[k], value)
}

// Del removes key.
func (h Header) Del(key string) {
	delete(h, CanonicalHeaderKey(key))
}

// Clone returns a deep copy of h (nil for nil).
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	n := 0
	for _, v := range h {
		n += len(v)
	}
	all := make([]string, n) // one allocation for every value, as net/http does
	c := make(Header, len(h))
	for k, v := range h {
		if v == nil {
			c[k] = nil
			continue
		}
		m := copy(all, v)
		c[k] = all[:m:m]
		all = all[m:]
	}
	return c
}

// CanonicalHeaderKey returns key in net/http's canonical form: the first
// letter and every letter after a hyphen upper-case, the others lower-case.
// A key that is not a valid header name (a space or any byte outside the
// token characters) is returned unchanged, as net/textproto does.
func CanonicalHeaderKey(key string) string {
	upper := true
	canonical := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !isTokenByte(c) {
			return key
		}
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			canonical = false
		}
		upper = c == '-'
	}
	if canonical {
		return key
	}
	b := []byte(key)
	upper = true
	for i, c := range b {
		if upper && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		} else if !upper && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
		upper = c == '-'
	}
	return string(b)
}

// IsTokenByte reports whether c may appear in a header name (RFC 7230
// tchar): what fetch and net/http accept in one.
func IsTokenByte(c byte) bool { return isTokenByte(c) }

// isTokenByte reports whether c may appear in a header name (RFC 7230
// tchar).
func isTokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
