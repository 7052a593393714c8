package core

// The program's JSON written member by member, byte for byte as
// json.Marshal writes evalProgram (HTML-escaped strings, omitempty alike):
// Program runs at every typed tool's creation, and encoding/json's
// reflection over these structs was most of what it cost a fresh instance.
// TestProgramJSON holds the two alike.

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// appendJSON appends p's JSON, false for a Lax it does not know.
func (p *evalProgram) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(p.V), 10)
	b = appendMarshalString(append(b, `,"tool":`...), p.Tool)
	b = appendMarshalString(append(b, `,"subject":`...), p.Subject)
	b = strconv.AppendInt(append(b, `,"root":`...), int64(p.Root), 10)
	b = append(b, `,"nodes":`...)
	if p.Nodes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Nodes {
			if i > 0 {
				b = append(b, ',')
			}
			b = p.Nodes[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = appendStringList(append(b, `,"known":`...), p.Known)
	if p.KeepAll {
		b = append(b, `,"keepAll":true`...)
	}
	b = appendStringList(append(b, `,"minimum":`...), p.Minimum)
	l := p.Limits
	b = strconv.AppendInt(append(b, `,"limits":{"issues":`...), int64(l.Issues), 10)
	b = strconv.AppendInt(append(b, `,"issueBytes":`...), int64(l.IssueBytes), 10)
	b = strconv.AppendInt(append(b, `,"messageBytes":`...), int64(l.MessageBytes), 10)
	b = strconv.AppendInt(append(b, `,"exponent":`...), int64(l.Exponent), 10)
	b = strconv.AppendInt(append(b, `,"depth":`...), int64(l.Depth), 10)
	b = strconv.AppendInt(append(b, `,"bytes":`...), int64(l.Bytes), 10)
	b = strconv.AppendInt(append(b, `,"unique":`...), int64(l.Unique), 10)
	b = append(b, '}')
	switch lax := p.Lax.(type) {
	case nil:
	case *laxProgramData:
		b = lax.appendJSON(append(b, `,"lax":`...))
	default:
		return nil, false
	}
	return append(b, '}'), true
}

// appendJSON appends n's JSON.
func (n *evalNode) appendJSON(b []byte) []byte {
	w := memberWriter{b: append(b, '{')}
	w.boolean("never", n.Never)
	w.strings("types", n.Types)
	w.str("typeMsg", n.TypeMsg)
	if n.Const != nil { // written even when empty: a pointer
		w.key("const")
		w.b = appendMarshalString(w.b, *n.Const)
	}
	w.str("constMsg", n.ConstMsg)
	w.strings("enum", n.Enum)
	w.str("enumMsg", n.EnumMsg)
	w.boolean("noEnum", n.NoEnum)
	if len(n.Bounds) > 0 {
		w.key("bounds")
		w.b = append(w.b, '[')
		for i := range n.Bounds {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = n.Bounds[i].appendJSON(w.b)
		}
		w.b = append(w.b, ']')
	}
	if n.Multiple != nil {
		w.key("multipleOf")
		w.b = n.Multiple.appendJSON(w.b)
	}
	w.intp("minLength", n.MinLen)
	w.intp("maxLength", n.MaxLen)
	w.pairs("props", n.Props)
	w.strings("required", n.Required)
	w.intp("additional", n.Add)
	w.boolean("noAdditional", n.NoAdd)
	w.intp("minProperties", n.MinProps)
	w.intp("maxProperties", n.MaxProps)
	w.ints("prefix", n.Prefix)
	w.intp("items", n.Items)
	w.intp("minItems", n.MinItems)
	w.intp("maxItems", n.MaxItems)
	w.boolean("unique", n.Unique)
	w.intp("ref", n.Ref)
	w.ints("allOf", n.AllOf)
	w.ints("anyOf", n.AnyOf)
	w.ints("oneOf", n.OneOf)
	return append(w.b, '}')
}

func (bd *evalBound) appendJSON(b []byte) []byte {
	b = appendMarshalString(append(b, `{"k":`...), bd.Keyword)
	b = appendMarshalString(append(b, `,"v":`...), bd.Value)
	b = appendMarshalString(append(b, `,"msg":`...), bd.Msg)
	return append(b, '}')
}

// appendJSON appends the lax program's JSON.
func (p *laxProgramData) appendJSON(b []byte) []byte {
	b = strconv.AppendInt(append(b, `{"root":`...), int64(p.Root), 10)
	b = append(b, `,"nodes":`...)
	if p.Nodes == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i := range p.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		n := &p.Nodes[i]
		w := memberWriter{b: append(b, '{')}
		w.strings("types", n.Types)
		w.pairs("props", n.Props)
		w.intp("other", n.Other)
		w.ints("prefix", n.Prefix)
		w.intp("items", n.Items)
		b = append(w.b, '}')
	}
	return append(b, "]}"...)
}

// memberWriter writes an object's omitempty members, a comma before all
// but the first. Its methods are not inlined: each of the program's many
// members would copy their bodies into the download.
type memberWriter struct {
	b    []byte
	some bool
}

//go:noinline
func (w *memberWriter) key(k string) {
	if w.some {
		w.b = append(w.b, ',')
	}
	w.some = true
	w.b = append(append(append(w.b, '"'), k...), `":`...)
}

//go:noinline
func (w *memberWriter) boolean(k string, v bool) {
	if v {
		w.key(k)
		w.b = append(w.b, "true"...)
	}
}

//go:noinline
func (w *memberWriter) str(k, v string) {
	if v != "" {
		w.key(k)
		w.b = appendMarshalString(w.b, v)
	}
}

//go:noinline
func (w *memberWriter) strings(k string, v []string) {
	if len(v) > 0 {
		w.key(k)
		w.b = appendStringList(w.b, v)
	}
}

//go:noinline
func (w *memberWriter) ints(k string, v []int) {
	if len(v) > 0 {
		w.key(k)
		w.b = append(w.b, '[')
		for i, n := range v {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = strconv.AppendInt(w.b, int64(n), 10)
		}
		w.b = append(w.b, ']')
	}
}

//go:noinline
func (w *memberWriter) intp(k string, v *int) {
	if v != nil {
		w.key(k)
		w.b = strconv.AppendInt(w.b, int64(*v), 10)
	}
}

// pairs writes [name, node] pairs; a pair of other types goes through
// json.Marshal.
func (w *memberWriter) pairs(k string, v [][2]any) {
	if len(v) == 0 {
		return
	}
	w.key(k)
	w.b = append(w.b, '[')
	for i, p := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		name, ok1 := p[0].(string)
		node, ok2 := p[1].(int)
		if !ok1 || !ok2 {
			data, _ := json.Marshal(p)
			w.b = append(w.b, data...)
			continue
		}
		w.b = appendMarshalString(append(w.b, '['), name)
		w.b = append(strconv.AppendInt(append(w.b, ','), int64(node), 10), ']')
	}
	w.b = append(w.b, ']')
}

// appendStringList writes a string list, null for nil.
func appendStringList(b []byte, v []string) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMarshalString(b, s)
	}
	return append(b, ']')
}

// appendMarshalString writes s as json.Marshal does: HTML characters,
// control characters, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func appendMarshalString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}
