package jsontext

// IsSpace reports whether c is JSON insignificant whitespace.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// OnlySpace reports whether b holds nothing but JSON whitespace.
func OnlySpace(b []byte) bool {
	for _, c := range b {
		if !IsSpace(c) {
			return false
		}
	}
	return true
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace (len(b) when there is none).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// EndOfString returns the index just past the string literal that starts at
// b[i] (a '"'), or len(b) when it never closes.
func EndOfString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// EndOfValue returns the index just past the JSON value that starts at b[i].
// The text must be valid JSON: brackets are counted, not checked.
func EndOfValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return EndOfString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = EndOfString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}

// Span is a half-open byte range of a text.
type Span struct{ Start, End int }

// ScanResult is what Scan learns about a JSON text without parsing it.
type ScanResult struct {
	// First is the first non-whitespace byte, 0 when there is none.
	First byte
	// End is the index just past the first complete top-level value, -1 if
	// it never closes.
	End int
	// TooDeep is true when nesting exceeded the maximum; the scan stopped
	// there.
	TooDeep bool
	// Keys are the string literals (quotes included) in key position of the
	// top-level object, when asked for.
	Keys []Span
}

// Scan measures the nesting depth of the first JSON value in data with a
// byte scan that knows strings and escapes, stopping as soon as maxDepth is
// exceeded, and finds where that value ends; with wantKeys it records the
// top-level object's keys. It does not validate: callers run json.Valid
// afterwards, and use the spans only once it has accepted the text.
func Scan(data []byte, maxDepth int, wantKeys bool) ScanResult {
	res := ScanResult{End: -1}
	i := SkipSpace(data, 0)
	if i == len(data) {
		return res
	}
	res.First = data[i]
	if res.First != '{' && res.First != '[' {
		// A scalar: no nesting. encoding/json finds its end.
		res.End = len(data)
		return res
	}
	depth := 0
	expectKey := false
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			start := i
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if i >= len(data) {
				return res // unterminated string
			}
			if wantKeys && depth == 1 && expectKey {
				if res.Keys == nil {
					res.Keys = make([]Span, 0, 8)
				}
				res.Keys = append(res.Keys, Span{start, i + 1})
			}
			expectKey = false
		case '{':
			depth++
			if depth > maxDepth {
				res.TooDeep = true
				return res
			}
			expectKey = depth == 1
		case '[':
			depth++
			if depth > maxDepth {
				res.TooDeep = true
				return res
			}
		case ',':
			expectKey = depth == 1 && res.First == '{'
		case '}', ']':
			depth--
			if depth <= 0 {
				res.End = i + 1
				return res
			}
		}
	}
	return res
}
