package core

import (
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The exported program's JSON, written member by member as JSON.parse
// reads json.Marshal's (the same members, omitempty alike) without
// reflection: encoding/json's reflection over the nodes was most of an
// export under WebAssembly. Strings are written without HTML escaping,
// which JSON.parse does not see; enum and const texts are strings holding
// json.Marshal's own text of each value, as before. The lax plan, when
// there is one, still goes through encoding/json.

// appendJSON appends p's JSON to buf.
func (p *evalProgram) appendJSON(buf []byte) ([]byte, error) {
	buf = append(buf, `{"v":`...)
	buf = strconv.AppendInt(buf, int64(p.V), 10)
	buf = append(buf, `,"tool":`...)
	buf = jsontext.AppendString(buf, p.Tool)
	buf = append(buf, `,"subject":`...)
	buf = jsontext.AppendString(buf, p.Subject)
	buf = append(buf, `,"root":`...)
	buf = strconv.AppendInt(buf, int64(p.Root), 10)
	buf = append(buf, `,"nodes":`...)
	if p.Nodes == nil {
		buf = append(buf, "null"...)
	} else {
		buf = append(buf, '[')
		for i := range p.Nodes {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = p.Nodes[i].appendJSON(buf)
		}
		buf = append(buf, ']')
	}
	buf = append(buf, `,"known":`...)
	buf = jsontext.AppendStrings(buf, p.Known)
	if p.KeepAll {
		buf = append(buf, `,"keepAll":true`...)
	}
	buf = append(buf, `,"minimum":`...)
	buf = jsontext.AppendStrings(buf, p.Minimum)
	l := p.Limits
	buf = append(buf, `,"limits":{"issues":`...)
	for i, n := range [...]int{l.Issues, l.IssueBytes, l.MessageBytes, l.Exponent, l.Depth, l.Bytes, l.Unique} {
		if i > 0 {
			buf = append(buf, `,"`...)
			buf = append(buf, [...]string{"", "issueBytes", "messageBytes", "exponent", "depth", "bytes", "unique"}[i]...)
			buf = append(buf, `":`...)
		}
		buf = strconv.AppendInt(buf, int64(n), 10)
	}
	buf = append(buf, '}')
	if p.Lax != nil {
		data, err := json.Marshal(p.Lax)
		if err != nil {
			return nil, err
		}
		buf = append(append(buf, `,"lax":`...), data...)
	}
	return append(buf, '}'), nil
}

// appendJSON appends n's JSON to buf, its empty members left out.
func (n *evalNode) appendJSON(buf []byte) []byte {
	w := memberWriter{buf: append(buf, '{')}
	w.flag("never", n.Never)
	if len(n.Types) > 0 {
		w.strings("types", n.Types)
	}
	w.str("typeMsg", n.TypeMsg)
	w.str("typeTail", n.TypeTail)
	if n.Const != nil {
		w.key("const")
		w.buf = jsontext.AppendString(w.buf, *n.Const)
	}
	w.str("constMsg", n.ConstMsg)
	if len(n.Enum) > 0 {
		w.strings("enum", n.Enum)
	}
	w.str("enumMsg", n.EnumMsg)
	w.flag("noEnum", n.NoEnum)
	if len(n.Bounds) > 0 {
		w.key("bounds")
		w.buf = append(w.buf, '[')
		for i := range n.Bounds {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = n.Bounds[i].appendJSON(w.buf)
		}
		w.buf = append(w.buf, ']')
	}
	if n.Multiple != nil {
		w.key("multipleOf")
		w.buf = n.Multiple.appendJSON(w.buf)
	}
	w.count("minLength", n.MinLen)
	w.count("maxLength", n.MaxLen)
	if len(n.Props) > 0 {
		w.key("props")
		w.buf = append(w.buf, '[')
		for i, p := range n.Props {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = append(w.buf, '[')
			w.buf = jsontext.AppendString(w.buf, p[0].(string))
			w.buf = append(w.buf, ',')
			w.buf = strconv.AppendInt(w.buf, int64(p[1].(int)), 10)
			w.buf = append(w.buf, ']')
		}
		w.buf = append(w.buf, ']')
	}
	if len(n.Required) > 0 {
		w.strings("required", n.Required)
		w.strings("requiredMsg", n.ReqMsg)
	}
	w.count("additional", n.Add)
	w.flag("noAdditional", n.NoAdd)
	w.count("minProperties", n.MinProps)
	w.count("maxProperties", n.MaxProps)
	w.ints("prefix", n.Prefix)
	w.count("items", n.Items)
	w.count("minItems", n.MinItems)
	w.count("maxItems", n.MaxItems)
	w.flag("unique", n.Unique)
	w.count("ref", n.Ref)
	w.ints("allOf", n.AllOf)
	w.ints("anyOf", n.AnyOf)
	w.ints("oneOf", n.OneOf)
	return append(w.buf, '}')
}

// appendJSON appends b's JSON to buf.
func (b *evalBound) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"k":`...)
	buf = jsontext.AppendString(buf, b.Keyword)
	buf = append(buf, `,"v":`...)
	buf = jsontext.AppendString(buf, b.Value)
	buf = append(buf, `,"msg":`...)
	buf = jsontext.AppendString(buf, b.Msg)
	return append(buf, '}')
}

// memberWriter writes the members of one object, a comma before each but
// the first.
type memberWriter struct {
	buf  []byte
	more bool
}

// key writes a member's key and colon.
func (w *memberWriter) key(k string) {
	if w.more {
		w.buf = append(w.buf, ',')
	}
	w.more = true
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, k...)
	w.buf = append(w.buf, `":`...)
}

// flag writes k: true, or nothing for false.
func (w *memberWriter) flag(k string, v bool) {
	if v {
		w.key(k)
		w.buf = append(w.buf, "true"...)
	}
}

// str writes k: s, or nothing for "".
func (w *memberWriter) str(k, s string) {
	if s != "" {
		w.key(k)
		w.buf = jsontext.AppendString(w.buf, s)
	}
}

// count writes k: *n, or nothing for nil.
func (w *memberWriter) count(k string, n *int) {
	if n != nil {
		w.key(k)
		w.buf = strconv.AppendInt(w.buf, int64(*n), 10)
	}
}

// strings writes k: list.
func (w *memberWriter) strings(k string, list []string) {
	w.key(k)
	w.buf = jsontext.AppendStrings(w.buf, list)
}

// ints writes k: list, or nothing for an empty list.
func (w *memberWriter) ints(k string, list []int) {
	if len(list) == 0 {
		return
	}
	w.key(k)
	w.buf = append(w.buf, '[')
	for i, x := range list {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	}
	w.buf = append(w.buf, ']')
}
