package core

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// Lax coercion: Pydantic v2's lax scalar conversions, guided by the schema.
//
// At compile time the schema becomes a coercePlan graph: for each place in
// the arguments, the JSON types the schema can accept there and the plans of
// its children. The walk follows "properties", "additionalProperties" (when it
// is a schema), "prefixItems", "items" (and draft-7 array "items" /
// "additionalItems"), local "$ref"s ("#" and "#/json/pointer") and "allOf".
//
// A value is converted only when its own JSON type is not acceptable where it
// stands, so a value that could already be valid is never changed (the two
// deliberate exceptions, 5 → 5.0 for "number" and 5.0 → 5 for "integer", keep
// the value mathematically equal). Unions are used only when unambiguous:
//   - "type" arrays, "anyOf" and "oneOf" contribute the union of the types of
//     their branches; a string is converted only when the union has no
//     "string", and not at all when it could become either a number or a
//     boolean ("1" against ["integer", "boolean"] stays "1" and fails).
//   - the children of an object (or array) are coerced through an
//     "anyOf"/"oneOf" branch only when exactly one branch accepts objects
//     (arrays), e.g. Optional[Model] = anyOf[{$ref Model}, {type: null}].
//
// Not followed (no conversion below them): "not", "if"/"then"/"else",
// "dependentSchemas", "patternProperties" (a key that may match a pattern is
// left alone), "unevaluated*", "$dynamicRef", anchors, and every "$ref" when
// a subschema below the root declares "$id" (its base URI would change what
// "#/..." means).

// CoerceMode chooses which scalar conversions request-model validation makes.
type CoerceMode string

const (
	// CoerceLax makes Pydantic v2's lax scalar conversions ("5" → 5 for
	// integers, "true" → true, 5 → 5.0 for numbers) and reports each one.
	CoerceLax CoerceMode = "lax"
	// CoerceNone converts nothing.
	CoerceNone CoerceMode = "none"
)

// Conversion records one lax conversion made while normalising arguments.
type Conversion struct {
	Path string `json:"path"` // JSON pointer
	From string `json:"from"` // JSON type before ("string", "integer", …)
	To   string `json:"to"`   // JSON Schema type after
}

// jsonKinds is a set of JSON Schema types.
type jsonKinds uint8

const (
	kindNull jsonKinds = 1 << iota
	kindBoolean
	kindInteger
	kindNumber
	kindString
	kindArray
	kindObject

	kindAll = kindNull | kindBoolean | kindInteger | kindNumber | kindString | kindArray | kindObject
)

// kindNamed maps JSON Schema type names to kinds.
var kindNamed = map[string]jsonKinds{
	"null": kindNull, "boolean": kindBoolean, "integer": kindInteger, "number": kindNumber,
	"string": kindString, "array": kindArray, "object": kindObject,
}

// kindsOfType reads a "type" keyword; false when it is malformed.
func kindsOfType(t any) (jsonKinds, bool) {
	switch t := t.(type) {
	case string:
		k, ok := kindNamed[t]
		return k, ok
	case []any:
		var k jsonKinds
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return 0, false
			}
			kk, ok := kindNamed[s]
			if !ok {
				return 0, false
			}
			k |= kk
		}
		return k, true
	}
	return 0, false
}

// intersectKinds intersects two type sets. The integer bit means "integers
// are accepted and stay integers"; the number bit alone means integers are
// accepted as numbers (and so become 5.0). Hence "number" ∩ "integer" is
// "integer", while "number" ∩ ["number", "integer"] is "number".
func intersectKinds(a, b jsonKinds) jsonKinds {
	r := (a & b) &^ kindInteger
	aI, aN := a&kindInteger != 0, a&kindNumber != 0
	bI, bN := b&kindInteger != 0, b&kindNumber != 0
	if (aI && bI) || (aI && !aN && bN) || (bI && !bN && aN) {
		r |= kindInteger
	}
	return r
}

// coercePlan says, for one place in the arguments, which types the schema
// accepts there and how to reach the places below it. A nil plan converts
// nothing.
type coercePlan struct {
	kinds  jsonKinds
	props  map[string]*coercePlan // object members by name
	other  *coercePlan            // members not in props
	prefix []*coercePlan          // array items by index
	items  *coercePlan            // array items past prefix

	names nameIndex     // the keys of props, sorted (indexPlans)
	kids  []*coercePlan // their plans
}

// member returns the plan of an object member.
func (p *coercePlan) member(key string) *coercePlan {
	if c, ok := p.props[key]; ok {
		return c
	}
	return p.other
}

// element returns the plan of an array item.
func (p *coercePlan) element(i int) *coercePlan {
	if i < len(p.prefix) {
		return p.prefix[i]
	}
	return p.items
}

// scalarTarget reports whether the plan can convert a scalar at all.
func (p *coercePlan) scalarTarget() bool {
	return p.kinds != 0 && p.kinds != kindAll && p.kinds&(kindInteger|kindNumber|kindBoolean) != 0
}

// maxPlanNodes bounds the plan graph of one schema; past it, deeper places
// get no plan (and so no conversions).
const maxPlanNodes = 4096

// maxPlanWork bounds the schema lookups made while building one plan.
const maxPlanWork = 200000

// planBuilder turns a schema document into a coercePlan graph.
type planBuilder struct {
	doc    any
	refsOK bool
	memo   map[string]*coercePlan
	nodes  int
	work   int

	// What each anyOf/oneOf group (by location) says, computed once: a
	// definition that many places refer to is analysed once, not once per
	// place.
	groupKindsMemo map[groupDepth]jsonKinds
	groupOnlyMemo  map[groupWant]groupOnly
}

// groupDepth is a group at a depth of kinds' recursion.
type groupDepth struct {
	group string
	depth int
}

// groupWant is a group and the kind restrict looks for.
type groupWant struct {
	group string
	want  jsonKinds
}

// groupOnly is the one branch of a group that accepts a kind, if only one
// does.
type groupOnly struct {
	v  view
	ok bool
}

// newPlanBuilder prepares to build plans for doc.
func newPlanBuilder(doc any) *planBuilder {
	return &planBuilder{doc: doc, refsOK: !hasNestedID(doc, true), memo: map[string]*coercePlan{},
		groupKindsMemo: map[groupDepth]jsonKinds{}, groupOnlyMemo: map[groupWant]groupOnly{}}
}

// hasNestedID reports whether a subschema below the root declares "$id".
func hasNestedID(v any, root bool) bool {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["$id"]; ok && !root {
			return true
		}
		for _, c := range v {
			if hasNestedID(c, false) {
				return true
			}
		}
	case []any:
		for _, c := range v {
			if hasNestedID(c, false) {
				return true
			}
		}
	}
	return false
}

// localRef resolves a "$ref" to a JSON pointer into the document.
func (b *planBuilder) localRef(ref string) (string, bool) {
	if !b.refsOK {
		return "", false
	}
	if ref == "#" {
		return "", true
	}
	if !strings.HasPrefix(ref, "#/") {
		return "", false
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil {
		return "", false
	}
	return ptr, true
}

// view is a conjunction of subschemas that all apply at one place, plus the
// anyOf/oneOf groups among them (each a disjunction of branches, by the
// location of its array).
type view struct {
	locs   []string
	nodes  []map[string]any
	never  bool // a false schema applies: nothing is valid here
	opaque bool // a $ref could not be followed
	groups []string
}

// branches lists the branch locations of a group.
func (b *planBuilder) branches(group string) []string {
	arr, _ := jsontext.At(b.doc, group).([]any)
	out := make([]string, len(arr))
	for i := range arr {
		out[i] = group + "/" + strconv.Itoa(i)
	}
	return out
}

// expand collects the subschemas that apply at the places locs, following
// local $refs and allOf.
func (b *planBuilder) expand(locs []string) view {
	var v view
	seen := map[string]bool{}
	var walk func(loc string, hops int)
	walk = func(loc string, hops int) {
		b.work++
		if seen[loc] || hops > 32 || b.work > maxPlanWork {
			return
		}
		seen[loc] = true
		switch n := jsontext.At(b.doc, loc).(type) {
		case bool:
			if !n {
				v.never = true
			}
		case map[string]any:
			v.locs = append(v.locs, loc)
			v.nodes = append(v.nodes, n)
			if ref, ok := n["$ref"].(string); ok {
				if target, ok := b.localRef(ref); ok {
					walk(target, hops+1)
				} else {
					v.opaque = true
				}
			}
			if all, ok := n["allOf"].([]any); ok {
				for i := range all {
					walk(loc+"/allOf/"+strconv.Itoa(i), hops+1)
				}
			}
			for _, kw := range [...]string{"anyOf", "oneOf"} {
				if _, ok := n[kw].([]any); ok {
					v.groups = append(v.groups, loc+"/"+kw)
				}
			}
		}
	}
	for _, l := range locs {
		walk(l, 0)
	}
	return v
}

// kinds over-approximates the types a view accepts: every type a valid value
// can have is in the result (ignoring what cannot be analysed only widens it).
func (b *planBuilder) kinds(v view, depth int) jsonKinds {
	if v.never {
		return 0
	}
	k := kindAll
	for _, n := range v.nodes {
		if t, ok := n["type"]; ok {
			if tk, ok := kindsOfType(t); ok {
				k = intersectKinds(k, tk)
			}
		}
	}
	if depth >= 8 {
		return k
	}
	for _, g := range v.groups {
		k = intersectKinds(k, b.groupKinds(g, depth+1))
	}
	return k
}

// groupKinds is the union of the kinds of a group's branches (memoised).
func (b *planBuilder) groupKinds(g string, depth int) jsonKinds {
	key := groupDepth{g, depth}
	if k, ok := b.groupKindsMemo[key]; ok {
		return k
	}
	var u jsonKinds
	for _, br := range b.branches(g) {
		u |= b.kinds(b.expand([]string{br}), depth)
	}
	b.groupKindsMemo[key] = u
	return u
}

// restrict adds to a view's subschemas those of the one branch of each group
// that accepts want (objects or arrays), when exactly one does.
func (b *planBuilder) restrict(v view, want jsonKinds) view {
	out := view{locs: v.locs, nodes: v.nodes}
	for _, g := range v.groups {
		if only := b.groupOnly(g, want); only.ok {
			out.locs = append(append([]string(nil), out.locs...), only.v.locs...)
			out.nodes = append(append([]map[string]any(nil), out.nodes...), only.v.nodes...)
		}
	}
	return out
}

// groupOnly finds the one branch of a group that accepts want (memoised).
func (b *planBuilder) groupOnly(g string, want jsonKinds) groupOnly {
	key := groupWant{g, want}
	if r, ok := b.groupOnlyMemo[key]; ok {
		return r
	}
	var r groupOnly
	n := 0
	for _, br := range b.branches(g) {
		bv := b.expand([]string{br})
		if b.kinds(bv, 1)&want != 0 {
			r.v = bv
			n++
		}
	}
	r.ok = n == 1
	b.groupOnlyMemo[key] = r
	return r
}

// build returns the plan for the places locs (memoised; recursive schemas
// make a cyclic graph).
func (b *planBuilder) build(locs []string) *coercePlan {
	if len(locs) == 0 {
		return nil
	}
	sorted := append([]string(nil), locs...)
	sort.Strings(sorted)
	key := strings.Join(sorted, "\x00")
	if p, ok := b.memo[key]; ok {
		return p
	}
	if b.nodes >= maxPlanNodes || b.work > maxPlanWork {
		return nil
	}
	b.nodes++
	v := b.expand(locs)
	p := &coercePlan{kinds: b.kinds(v, 0)}
	b.memo[key] = p
	if p.kinds&kindObject != 0 {
		b.buildObject(p, b.restrict(v, kindObject))
	}
	if p.kinds&kindArray != 0 {
		b.buildArray(p, b.restrict(v, kindArray))
	}
	if !p.scalarTarget() && p.props == nil && p.other == nil && p.prefix == nil && p.items == nil {
		// Inert: nothing to convert here or below. Inert plans have no
		// children, so no cycle can hold them.
		b.memo[key] = nil
		return nil
	}
	return p
}

// buildObject fills the member plans of p from the subschemas in v.
func (b *planBuilder) buildObject(p *coercePlan, v view) {
	var names []string
	seen := map[string]bool{}
	for _, n := range v.nodes {
		props, _ := n["properties"].(map[string]any)
		for _, k := range sortedSchemaKeys(props) {
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	additional := func(i int) (string, bool) {
		n := v.nodes[i]
		if _, ok := n["patternProperties"]; ok {
			return "", false
		}
		if _, ok := n["additionalProperties"].(map[string]any); ok {
			return v.locs[i] + "/additionalProperties", true
		}
		return "", false
	}
	for _, k := range names {
		var locs []string
		for i, n := range v.nodes {
			props, _ := n["properties"].(map[string]any)
			if _, ok := props[k]; ok {
				locs = append(locs, jsontext.Join(v.locs[i], "properties", k))
			} else if loc, ok := additional(i); ok {
				locs = append(locs, loc)
			}
		}
		if c := b.build(locs); c != nil {
			if p.props == nil {
				p.props = map[string]*coercePlan{}
			}
			p.props[k] = c
		}
	}
	var other []string
	for i := range v.nodes {
		if loc, ok := additional(i); ok {
			other = append(other, loc)
		}
	}
	p.other = b.build(other)
}

// buildArray fills the item plans of p from the subschemas in v.
func (b *planBuilder) buildArray(p *coercePlan, v view) {
	type tuple struct {
		prefix []string // locations of the positional item schemas
		rest   string   // location of the schema for later items, "" if none
	}
	var tuples []tuple
	maxPrefix := 0
	for i, n := range v.nodes {
		var t tuple
		loc := v.locs[i]
		if pi, ok := n["prefixItems"].([]any); ok {
			for j := range pi {
				t.prefix = append(t.prefix, loc+"/prefixItems/"+strconv.Itoa(j))
			}
			if _, ok := n["items"].(map[string]any); ok {
				t.rest = loc + "/items"
			}
		} else if it, ok := n["items"].([]any); ok { // draft 7 and older
			for j := range it {
				t.prefix = append(t.prefix, loc+"/items/"+strconv.Itoa(j))
			}
			if _, ok := n["additionalItems"].(map[string]any); ok {
				t.rest = loc + "/additionalItems"
			}
		} else if _, ok := n["items"].(map[string]any); ok {
			t.rest = loc + "/items"
		}
		if len(t.prefix) > maxPrefix {
			maxPrefix = len(t.prefix)
		}
		tuples = append(tuples, t)
	}
	for j := 0; j < maxPrefix; j++ {
		var locs []string
		for _, t := range tuples {
			if j < len(t.prefix) {
				locs = append(locs, t.prefix[j])
			} else if t.rest != "" {
				locs = append(locs, t.rest)
			}
		}
		p.prefix = append(p.prefix, b.build(locs))
	}
	var rest []string
	for _, t := range tuples {
		if t.rest != "" {
			rest = append(rest, t.rest)
		}
	}
	p.items = b.build(rest)
	if p.items == nil {
		allNil := true
		for _, c := range p.prefix {
			if c != nil {
				allNil = false
			}
		}
		if allNil {
			p.prefix = nil
		}
	}
}

// coerceState carries the path and the conversions of one Normalize call.
type coerceState struct {
	path  []string
	convs []Conversion
}

// pointer is the JSON pointer of the current path.
func (st *coerceState) pointer() string {
	return jsontext.Join("", st.path...)
}

// record notes one conversion at the current path.
func (st *coerceState) record(from, to string) {
	st.convs = append(st.convs, Conversion{Path: st.pointer(), From: from, To: to})
}

// apply converts v where the plan says so. It never modifies v: a changed
// object or array is a copy, unchanged parts are shared.
func (p *coercePlan) apply(v any, st *coerceState) (any, bool) {
	switch x := v.(type) {
	case string:
		if p.scalarTarget() {
			if nv, ok := p.fromString(x, st); ok {
				return nv, true
			}
		}
	case json.Number:
		if p.scalarTarget() {
			if nv, ok := p.fromNumber(x, st); ok {
				return nv, true
			}
		}
	case map[string]any:
		if p.props == nil && p.other == nil {
			return v, false
		}
		var keys []string
		for k := range x {
			if p.member(k) != nil {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		var out map[string]any
		for _, k := range keys {
			st.path = append(st.path, k)
			nv, changed := p.member(k).apply(x[k], st)
			st.path = st.path[:len(st.path)-1]
			if changed {
				if out == nil {
					out = make(map[string]any, len(x))
					for kk, vv := range x {
						out[kk] = vv
					}
				}
				out[k] = nv
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		if p.prefix == nil && p.items == nil {
			return v, false
		}
		var out []any
		for i, e := range x {
			c := p.element(i)
			if c == nil {
				continue
			}
			st.path = append(st.path, strconv.Itoa(i))
			nv, changed := c.apply(e, st)
			st.path = st.path[:len(st.path)-1]
			if changed {
				if out == nil {
					out = append([]any(nil), x...)
				}
				out[i] = nv
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}
