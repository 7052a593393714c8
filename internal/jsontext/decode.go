package jsontext

import "encoding/json"

// ParseValid builds the value of a JSON text that json.Valid has already
// accepted, the way encoding/json decodes into any with UseNumber: objects
// become map[string]any (a repeated key keeps its last value), arrays []any,
// numbers json.Number, strings string. It skips encoding/json's reflection,
// which dominates argument decoding under WebAssembly. Strings with escapes
// are still decoded by encoding/json, so escapes and lone surrogates (→
// U+FFFD) read exactly as there. Calling it on invalid JSON is a bug.
func ParseValid(b []byte) any {
	p := validParser{b: b}
	return p.value()
}

type validParser struct {
	b []byte
	i int
}

func (p *validParser) value() any {
	p.i = SkipSpace(p.b, p.i)
	switch c := p.b[p.i]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.str()
	case 't':
		p.i += 4
		return true
	case 'f':
		p.i += 5
		return false
	case 'n':
		p.i += 4
		return nil
	}
	start := p.i
	end := EndOfValue(p.b, p.i)
	p.i = end
	return json.Number(p.b[start:end])
}

func (p *validParser) object() map[string]any {
	m := make(map[string]any)
	p.i++ // {
	for {
		p.i = SkipSpace(p.b, p.i)
		switch p.b[p.i] {
		case '}':
			p.i++
			return m
		case ',':
			p.i = SkipSpace(p.b, p.i+1)
		}
		k := p.str()
		p.i = SkipSpace(p.b, p.i) + 1 // the colon
		m[k] = p.value()
	}
}

func (p *validParser) array() []any {
	a := make([]any, 0, 4)
	p.i++ // [
	for {
		p.i = SkipSpace(p.b, p.i)
		switch p.b[p.i] {
		case ']':
			p.i++
			return a
		case ',':
			p.i++
		}
		a = append(a, p.value())
	}
}

func (p *validParser) str() string {
	start := p.i
	p.i = EndOfString(p.b, p.i)
	return Unquote(p.b[start:p.i])
}

// Unquote decodes a valid JSON string literal (quotes included) exactly as
// encoding/json does: plain ASCII without escapes is sliced; anything else
// goes through encoding/json, so escapes, lone surrogates and invalid UTF-8
// become what they become there.
func Unquote(lit []byte) string {
	for _, c := range lit[1 : len(lit)-1] {
		if c == '\\' || c >= 0x80 {
			var s string
			_ = json.Unmarshal(lit, &s)
			return s
		}
	}
	return string(lit[1 : len(lit)-1])
}
