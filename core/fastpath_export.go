package core

// The fast path's program as data, for a pre-check in JavaScript
// (npm/lib/precheck.js) that may only ever answer "certainly valid": it is
// exported only for the schemas, keywords and values where comparing
// JavaScript's doubles gives the answer the fast path's exact decimals give,
// and for tools whose validation makes no conversion and drops no key it
// does not see. Anything else exports nothing, and every call goes to Go.

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// maxExportNodes bounds the subschemas an exported program may hold.
const maxExportNodes = 4096

// precheckProgram is the exported program: its nodes (the subschemas, by
// index), the root's index, the top-level keys that survive, and the keys
// the non-strict check requires.
type precheckProgram struct {
	Root    int            `json:"root"`
	Nodes   []precheckNode `json:"nodes"`
	Known   []string       `json:"known"`
	KeepAll bool           `json:"keepAll,omitempty"`
	Minimum []string       `json:"minimum"`
}

// precheckNode is one fastNode as data; subschemas are node indexes.
type precheckNode struct {
	Never    bool            `json:"never,omitempty"`
	Types    []string        `json:"types,omitempty"`
	Const    []any           `json:"const,omitempty"` // one value, wrapped so that null can be told from absent
	Enum     []any           `json:"enum,omitempty"`
	NoEnum   bool            `json:"noEnum,omitempty"`
	Bounds   []precheckBound `json:"bounds,omitempty"`
	Multiple float64         `json:"multipleOf,omitempty"`
	MinLen   *int            `json:"minLength,omitempty"`
	MaxLen   *int            `json:"maxLength,omitempty"`
	Props    [][2]any        `json:"props,omitempty"` // [name, node]
	Required []string        `json:"required,omitempty"`
	Add      *int            `json:"additional,omitempty"`
	NoAdd    bool            `json:"noAdditional,omitempty"`
	MinProps *int            `json:"minProperties,omitempty"`
	MaxProps *int            `json:"maxProperties,omitempty"`
	Prefix   []int           `json:"prefix,omitempty"`
	Items    *int            `json:"items,omitempty"`
	MinItems *int            `json:"minItems,omitempty"`
	MaxItems *int            `json:"maxItems,omitempty"`
	Unique   bool            `json:"unique,omitempty"`
	Ref      *int            `json:"ref,omitempty"`
	AllOf    []int           `json:"allOf,omitempty"`
	AnyOf    []int           `json:"anyOf,omitempty"`
	OneOf    []int           `json:"oneOf,omitempty"`
}

// precheckBound is one of minimum, exclusiveMinimum, maximum and
// exclusiveMaximum, its bound a double equal to the schema's literal.
type precheckBound struct {
	Keyword string  `json:"k"`
	Value   float64 `json:"v"`
}

// Precheck returns the data-only description of the fast path's program
// for t's arguments, for a JavaScript pre-check that answers only
// "certainly valid" (npm/lib/precheck.js), or nil when t is not a typed
// tool validated on the fast path with no conversion possible (coerce
// "none", or a schema with no lax conversion), not strict, or when its
// schema uses anything the export does not model exactly (a pattern, a
// number whose literal is not the shortest text of a double, a multipleOf
// that is not an integer, a composite enum or const value).
func (t *Tool) Precheck() json.RawMessage {
	d := t.fields()
	cs := t.currentSchema(d)
	if !d.typed || cs == nil || cs.fast == nil || t.StrictFuncCall {
		return nil
	}
	switch t.Coerce {
	case CoerceNone:
	case "", CoerceLax:
		if cs.plan != nil {
			return nil
		}
	default:
		return nil
	}
	if len(cs.patterns) > 0 {
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
	root := e.node(cs.fast.root)
	if !e.ok {
		return nil
	}
	p := precheckProgram{Root: root, Nodes: e.nodes, Known: append([]string{}, cs.fast.known...), KeepAll: cs.keepAllKeys,
		Minimum: append([]string{}, d.minimum...)}
	data, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	return data
}

// exporter numbers the nodes of a fastNode graph (cycles through $ref
// included) as it writes them.
type exporter struct {
	index map[*fastNode]int
	nodes []precheckNode
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
	e.nodes = append(e.nodes, precheckNode{})
	out := e.fill(n)
	e.nodes[i] = out
	return i
}

// fill writes the assertions of n; e.ok turns false for one the export
// does not model.
func (e *exporter) fill(n *fastNode) precheckNode {
	var out precheckNode
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
		if len(out.Types) == 0 {
			e.ok = false
		}
	}
	if n.hasConst {
		out.Const = []any{e.literal(n.constant.value)}
	}
	if n.hasEnum {
		out.Enum = []any{}
		for _, l := range n.enum {
			out.Enum = append(out.Enum, e.literal(l.value))
		}
	}
	out.NoEnum = n.noEnum
	for _, b := range n.bounds {
		f, ok := shortestDouble(b.dec)
		e.ok = e.ok && ok
		out.Bounds = append(out.Bounds, precheckBound{Keyword: b.keyword, Value: f})
	}
	if m := n.multipleOf; m != nil {
		f, ok := shortestDouble(m.dec)
		if !ok || f != math.Trunc(f) || f < 1 || f > maxSafeInteger {
			e.ok = false
		}
		out.Multiple = f
	}
	out.MinLen, out.MaxLen = count(n.minLength), count(n.maxLength)
	for _, p := range n.props {
		out.Props = append(out.Props, [2]any{p.name, e.node(p.node)})
	}
	out.Required = n.required
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

// literal is an enum or const value as JavaScript compares it: a string,
// boolean or null as it is, a number as the double its literal is exactly
// the shortest text of; anything else is not modelled.
func (e *exporter) literal(v any) any {
	switch x := v.(type) {
	case string, bool, nil:
		return x
	case json.Number:
		f, ok := shortestDouble(parseDecimal([]byte(x)))
		e.ok = e.ok && ok
		return f
	}
	e.ok = false
	return nil
}

// count is a length or count keyword, nil when absent (-1).
func count(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

// shortestDouble returns the double whose shortest round-trip text has the
// same exact value as d, and whether there is one: only then does
// comparing a JavaScript number with the double give what comparing its
// JSON text (the shortest round-trip text) with d's digits gives. Values
// beyond ±(2^53−1) are refused too, as JavaScript numbers past it are.
func shortestDouble(d decimal) (float64, bool) {
	if d.exp < -400 || d.exp > 400 {
		return 0, false
	}
	var digits []byte
	if d.neg {
		digits = append(digits, '-')
	}
	digits = append(append(append(digits, '0'), d.hi...), d.lo...)
	text := string(digits) + "e" + strconv.Itoa(d.exp)
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return 0, false
	}
	f, exact := r.Float64()
	if !exact || math.IsInf(f, 0) || math.Abs(f) > maxSafeInteger {
		return 0, false
	}
	back, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if !ok || back.Cmp(r) != 0 {
		return 0, false
	}
	return f, true
}
