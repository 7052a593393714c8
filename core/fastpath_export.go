package core

// The fast path's program as data, for the JavaScript evaluator
// (npm/lib/evaluator.js) that gives every verdict the fast path gives for a
// tool's arguments: valid with the normalised arguments, or refused with
// the same issues and message. Numbers are exported as their exact decimal
// text, enum and const values as their JSON text (spellings kept), and the
// messages the fast path precomputes as they are. A tool whose schema or
// options the export does not model exports nothing, and its calls cross to
// Go.

import (
	"encoding/json"
	"strconv"
)

// ProgramVersion is the version of the exported program's format: a reader
// refuses a program of another version.
const ProgramVersion = 1

// maxExportNodes bounds the subschemas an exported program may hold.
const maxExportNodes = 4096

// evalProgram is the exported program: its nodes (the subschemas, by
// index), the root's index, the top-level keys that survive, the keys the
// non-strict check requires, the error's wording and the limits the fast
// path applies.
type evalProgram struct {
	V       int        `json:"v"`
	Tool    string     `json:"tool"`
	Subject string     `json:"subject"` // "the parameters schema of tool \"name\""
	Root    int        `json:"root"`
	Nodes   []evalNode `json:"nodes"`
	Known   []string   `json:"known"`
	KeepAll bool       `json:"keepAll,omitempty"`
	Minimum []string   `json:"minimum"`
	Limits  evalLimits `json:"limits"`
	Lax     any        `json:"lax,omitempty"`
}

// evalLimits are the bounds the fast path applies, as numbers JS reads.
type evalLimits struct {
	Issues       int `json:"issues"`       // MaxIssues
	IssueBytes   int `json:"issueBytes"`   // MaxIssueMessageBytes
	MessageBytes int `json:"messageBytes"` // MaxErrorMessageBytes
	Exponent     int `json:"exponent"`     // MaxNumberExponent
	Depth        int `json:"depth"`        // MaxArgumentDepth
	Bytes        int `json:"bytes"`        // MaxArgumentBytes
	Unique       int `json:"unique"`       // maxFastUnique: a longer array with uniqueItems goes to Go
}

// evalNode is one fastNode as data; subschemas are node indexes.
type evalNode struct {
	Never    bool        `json:"never,omitempty"`
	Types    []string    `json:"types,omitempty"`
	TypeMsg  string      `json:"typeMsg,omitempty"`
	TypeTail string      `json:"typeTail,omitempty"` // after the kind and the string sent
	Const    *string     `json:"const,omitempty"`    // the value's JSON text
	ConstMsg string      `json:"constMsg,omitempty"`
	Enum     []string    `json:"enum,omitempty"` // the values' JSON texts
	EnumMsg  string      `json:"enumMsg,omitempty"`
	NoEnum   bool        `json:"noEnum,omitempty"`
	Bounds   []evalBound `json:"bounds,omitempty"`
	Multiple *evalBound  `json:"multipleOf,omitempty"`
	MinLen   *int        `json:"minLength,omitempty"`
	MaxLen   *int        `json:"maxLength,omitempty"`
	Props    [][2]any    `json:"props,omitempty"` // [name, node]
	Required []string    `json:"required,omitempty"`
	ReqMsg   []string    `json:"requiredMsg,omitempty"` // each required name's message tail
	Add      *int        `json:"additional,omitempty"`
	NoAdd    bool        `json:"noAdditional,omitempty"`
	MinProps *int        `json:"minProperties,omitempty"`
	MaxProps *int        `json:"maxProperties,omitempty"`
	Prefix   []int       `json:"prefix,omitempty"`
	Items    *int        `json:"items,omitempty"`
	MinItems *int        `json:"minItems,omitempty"`
	MaxItems *int        `json:"maxItems,omitempty"`
	Unique   bool        `json:"unique,omitempty"`
	Ref      *int        `json:"ref,omitempty"`
	AllOf    []int       `json:"allOf,omitempty"`
	AnyOf    []int       `json:"anyOf,omitempty"`
	OneOf    []int       `json:"oneOf,omitempty"`
}

// evalBound is one number check: its keyword, the bound as exact decimal
// text, and the fast path's message part (before the number's literal for a
// bound, after it for multipleOf).
type evalBound struct {
	Keyword string `json:"k"`
	Value   string `json:"v"`
	Msg     string `json:"msg"`
}

// Program returns the data-only description of the fast path's program for
// t's arguments, for the JavaScript evaluator (npm/lib/evaluator.js), or
// nil when t is not a typed tool of any keyword validated on the fast path
// with coerce "none" (or lax with no conversion possible, or a coercion
// plan the lax export describes), not strict, or when its schema holds a
// pattern (top-level patternProperties included).
func (t *Tool) Program() json.RawMessage {
	p := t.program()
	if p == nil {
		return nil
	}
	data, err := p.appendJSON(make([]byte, 0, 512))
	if err != nil {
		return nil
	}
	return data
}

// program is the program Program writes, or nil.
func (t *Tool) program() *evalProgram {
	d := t.fields()
	cs := t.currentSchema(d)
	if !d.typed || cs == nil || t.StrictFuncCall {
		return nil
	}
	parts := cs.parts()
	if parts.fast == nil {
		return nil
	}
	var lax any
	switch t.Coerce {
	case CoerceNone:
	case "", CoerceLax:
		if plan := cs.laxPlan(); plan != nil {
			if lax = laxProgram(plan); lax == nil {
				return nil
			}
		}
	default:
		return nil
	}
	if len(parts.patterns) > 0 {
		return nil
	}
	if sig, err := t.signature(); err == nil {
		kwargs := false
		for _, p := range sig.Params {
			kwargs = kwargs || p.Kind == ParamKeywords
		}
		if !kwargs {
			return nil
		}
	}
	e := &exporter{index: map[*fastNode]int{}, ok: true}
	root := e.node(parts.fast.root)
	if !e.ok {
		return nil
	}
	subject := "the parameters schema"
	if d.function != "" {
		subject += " of tool " + strconv.Quote(d.function)
	}
	return &evalProgram{V: ProgramVersion, Tool: d.function, Subject: subject, Root: root, Nodes: e.nodes,
		Known: append([]string{}, parts.fast.known...), KeepAll: parts.keepAllKeys, Minimum: append([]string{}, d.minimum...),
		Limits: evalLimits{Issues: MaxIssues, IssueBytes: MaxIssueMessageBytes, MessageBytes: MaxErrorMessageBytes,
			Exponent: MaxNumberExponent, Depth: MaxArgumentDepth, Bytes: MaxArgumentBytes, Unique: maxFastUnique},
		Lax: lax}
}

// exporter numbers the nodes of a fastNode graph (cycles through $ref
// included) as it writes them.
type exporter struct {
	index map[*fastNode]int
	nodes []evalNode
	ok    bool
}

// node exports n (once) and returns its index.
func (e *exporter) node(n *fastNode) int {
	if i, ok := e.index[n]; ok {
		return i
	}
	i := len(e.nodes)
	if i >= maxExportNodes {
		e.ok = false
		return 0
	}
	e.index[n] = i
	e.nodes = append(e.nodes, evalNode{})
	out := e.fill(n)
	e.nodes[i] = out
	return i
}

// fill writes the assertions of n; e.ok turns false for one the export
// does not model (a pattern).
func (e *exporter) fill(n *fastNode) evalNode {
	var out evalNode
	if n.never {
		out.Never = true
		return out
	}
	if n.pattern != nil {
		e.ok = false
	}
	if n.hasType {
		for _, name := range []string{"null", "boolean", "integer", "number", "string", "array", "object"} {
			if n.kinds&kindNamed[name] != 0 {
				out.Types = append(out.Types, name)
			}
		}
		out.TypeMsg, out.TypeTail = n.typeMsg, n.typeTail
		if len(out.Types) == 0 {
			e.ok = false
		}
	}
	if n.hasConst {
		text := e.literal(n.constant.value)
		out.Const, out.ConstMsg = &text, n.constMsg
	}
	if n.hasEnum {
		for _, l := range n.enum {
			out.Enum = append(out.Enum, e.literal(l.value))
		}
		out.EnumMsg = n.enumMsg
	}
	out.NoEnum = n.noEnum
	for _, b := range n.bounds {
		out.Bounds = append(out.Bounds, evalBound{Keyword: b.keyword, Value: b.dec.text(), Msg: b.msg})
	}
	if m := n.multipleOf; m != nil {
		out.Multiple = &evalBound{Keyword: m.keyword, Value: m.dec.text(), Msg: m.msg}
	}
	out.MinLen, out.MaxLen = count(n.minLength), count(n.maxLength)
	for _, p := range n.props {
		out.Props = append(out.Props, [2]any{p.name, e.node(p.node)})
	}
	out.Required, out.ReqMsg = n.required, n.requiredMsg
	if n.additional != nil {
		i := e.node(n.additional)
		out.Add = &i
	}
	out.NoAdd = n.noAdditional
	out.MinProps, out.MaxProps = count(n.minProperties), count(n.maxProps)
	for _, c := range n.prefix {
		out.Prefix = append(out.Prefix, e.node(c))
	}
	if n.items != nil {
		i := e.node(n.items)
		out.Items = &i
	}
	out.MinItems, out.MaxItems = count(n.minItems), count(n.maxItems)
	out.Unique = n.unique
	if n.ref != nil {
		i := e.node(n.ref)
		out.Ref = &i
	}
	for _, list := range []struct {
		from []*fastNode
		to   *[]int
	}{{n.allOf, &out.AllOf}, {n.anyOf, &out.AnyOf}, {n.oneOf, &out.OneOf}} {
		for _, c := range list.from {
			*list.to = append(*list.to, e.node(c))
		}
	}
	return out
}

// literal is an enum or const value as JSON text, its numbers spelled as
// the schema spells them.
func (e *exporter) literal(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		e.ok = false
		return "null"
	}
	return string(data)
}

// count is a length or count keyword, nil when absent (-1).
func count(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

// text is d as an exact JSON number literal: its digits and exponent
// ("-15e-1"), "0" for zero.
func (d decimal) text() string {
	if d.digits() == 0 {
		return "0"
	}
	var b []byte
	if d.neg {
		b = append(b, '-')
	}
	b = append(append(b, d.hi...), d.lo...)
	if d.exp != 0 {
		b = append(b, 'e')
		b = strconv.AppendInt(b, int64(d.exp), 10)
	}
	return string(b)
}
