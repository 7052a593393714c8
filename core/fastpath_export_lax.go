package core

// The coercion plan as data, for the JavaScript evaluator's lax conversions
// (npm/lib/evaluator-lax.js): the coercePlan graph with its nodes by index,
// which the evaluator walks exactly as convertObject and convert walk the
// tape, making fromString's and fromNumber's conversions (ported to JS
// digit for digit).

import (
	"encoding/json"
	"sort"
)

// laxProgramData is the plan graph: its nodes (a plan shared by several
// places, or reached again through a recursive $ref, is one node) and the
// root's index. Root is -1 when the schema has no plan: nothing converts.
type laxProgramData struct {
	Root  int       `json:"root"`
	Nodes []laxNode `json:"nodes"`
}

// laxNode is one coercePlan. Types are its kinds as JSON Schema type names
// (absent: none, a place where nothing is valid), read as intersectKinds
// reads them: "integer" says integers are accepted and stay integers,
// "number" without "integer" says integers become numbers (5 → 5.0). Props
// are the member plans, [name, node] sorted by name; Other is the plan of
// the members not in Props; Prefix the plans of the first items (-1 for an
// item with none); Items the plan of the items past Prefix. An absent
// Other or Items is no plan.
type laxNode struct {
	Types  []string `json:"types,omitempty"`
	Props  [][2]any `json:"props,omitempty"`
	Other  *int     `json:"other,omitempty"`
	Prefix []int    `json:"prefix,omitempty"`
	Items  *int     `json:"items,omitempty"`
}

// laxTypeNames are the type names in the order of the kind bits.
var laxTypeNames = [...]string{"null", "boolean", "integer", "number", "string", "array", "object"}

// laxProgram returns the data-only description of plan for the JavaScript
// evaluator (a laxProgramData, for json.Marshal): every plan is modelled,
// so it is never nil; a nil plan gives Root -1, a program that converts
// nothing.
func laxProgram(plan *coercePlan) any {
	e := &laxExporter{index: map[*coercePlan]int{}, nodes: []laxNode{}}
	return &laxProgramData{Root: e.node(plan), Nodes: e.nodes}
}

// laxExporter numbers the plans of a graph (cycles included) as it writes
// them.
type laxExporter struct {
	index map[*coercePlan]int
	nodes []laxNode
}

// node exports p (once) and returns its index, -1 for nil.
func (e *laxExporter) node(p *coercePlan) int {
	if p == nil {
		return -1
	}
	if i, ok := e.index[p]; ok {
		return i
	}
	i := len(e.nodes)
	e.index[p] = i
	e.nodes = append(e.nodes, laxNode{})
	var out laxNode
	for bit, name := range laxTypeNames {
		if p.kinds&(1<<bit) != 0 {
			out.Types = append(out.Types, name)
		}
	}
	names := make([]string, 0, len(p.props))
	for name := range p.props {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out.Props = append(out.Props, [2]any{name, e.node(p.props[name])})
	}
	out.Other = e.ref(p.other)
	for _, c := range p.prefix {
		out.Prefix = append(out.Prefix, e.node(c))
	}
	out.Items = e.ref(p.items)
	e.nodes[i] = out
	return i
}

// ref is node for an optional child: nil when there is no plan.
func (e *laxExporter) ref(p *coercePlan) *int {
	if p == nil {
		return nil
	}
	i := e.node(p)
	return &i
}

// LaxProgram returns the coercion plan of t's arguments as the JavaScript
// evaluator receives it (JSON), whatever t's coerce mode: the debug hook
// the Node differential test of the lax conversions reads it through. It
// is nil when t is not a typed tool or its schema is not compiled.
func (t *Tool) LaxProgram() json.RawMessage {
	d := t.fields()
	cs := t.currentSchema(d)
	if !d.typed || cs == nil {
		return nil
	}
	data, err := json.Marshal(laxProgram(cs.laxPlan()))
	if err != nil {
		return nil
	}
	return data
}
