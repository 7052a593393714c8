package core

import (
	"encoding/binary"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The validator's walk. A schema is a graph: from each subschema the
// validator goes on, at the same value, to the subschemas it applies in place
// ($ref, allOf, anyOf, …), and to those of the value's members and items. It
// visits a subschema once per path that reaches it, so references can make
// it visit one small definition exponentially often; and it rebuilds the
// location of its whole chain of subschemas for every error it makes. Both
// are bounded on the document's graph. When every reference is local ("#" or
// "#/pointer", no "$id" below the root, no anchors or dynamic references:
// what Pydantic, zod and MCP servers write) the graph is built before the
// validator compiles; otherwise just after, with the validator's own
// resolution of each reference (compiling visits each subschema once: the
// exponential work, validation and the coercion plan, is still ahead).

// walkBudget bounds the steps of checkWalk itself; a schema that needs more
// to be bounded is refused as past MaxRefExpansion. Real schemas take a few
// thousand.
const walkBudget = 1 << 21

// walkNode is one subschema of the walk graph, by the indexes of the
// subschemas it leads to.
type walkNode struct {
	inPlace  []int32          // applied to the same value
	props    map[string]int32 // properties
	patterns []walkPattern    // patternProperties
	addl     int32            // additionalProperties, or -1
	members  []int32          // unevaluatedProperties: any member
	prefix   []int32          // prefixItems, or draft-7 "items" as an array
	rest     int32            // items past the prefix, or -1
	items    []int32          // contains, unevaluatedItems: any item
	others   []int32          // propertyNames: a value that is neither
}

// walkPattern is one patternProperties entry; a nil re (an expression RE2
// refuses, which the compile reports) matches every name.
type walkPattern struct {
	re *regexp.Regexp
	to int32
}

// refTargets returns the JSON pointers that the reference keywords of the
// subschema m at loc lead to. A reference to a built-in metaschema leads
// nowhere (the metaschemas are the library's, fixed and bounded), and so
// does one the compile refuses.
type refTargets func(loc string, m map[string]any) []string

// walkGraph is a schema document as the validator walks it: its subschemas
// (objects and booleans at schema positions), numbered.
type walkGraph struct {
	doc   any
	locs  []string // each subschema's JSON pointer
	vals  []any    // and its value
	nodes []walkNode
	ids   map[string]int32
	refs  refTargets
}

// newWalkGraph numbers every subschema reachable from the root.
func newWalkGraph(doc any, refs refTargets) *walkGraph {
	g := &walkGraph{doc: doc, ids: map[string]int32{}, refs: refs}
	g.id("", doc)
	for i := 0; i < len(g.locs); i++ {
		if m, ok := g.vals[i].(map[string]any); ok {
			g.link(int32(i), g.locs[i], m)
		}
	}
	return g
}

// isSchema reports whether a value can be a subschema.
func isSchema(v any) bool {
	switch v.(type) {
	case map[string]any, bool:
		return true
	}
	return false
}

// id numbers the subschema v at loc, adding it to the graph when new.
func (g *walkGraph) id(loc string, v any) int32 {
	if id, ok := g.ids[loc]; ok {
		return id
	}
	id := int32(len(g.locs))
	g.ids[loc] = id
	g.locs = append(g.locs, loc)
	g.vals = append(g.vals, v)
	g.nodes = append(g.nodes, walkNode{addl: -1, rest: -1})
	return id
}

// one is the subschema m holds under kw, or -1.
func (g *walkGraph) one(loc string, m map[string]any, kw string) int32 {
	if isSchema(m[kw]) {
		return g.id(loc+"/"+kw, m[kw])
	}
	return -1
}

// add appends the subschema m holds under kw, if any.
func (g *walkGraph) add(list []int32, loc string, m map[string]any, kw string) []int32 {
	if x := g.one(loc, m, kw); x >= 0 {
		list = append(list, x)
	}
	return list
}

// list appends the subschemas of the array m holds under kw.
func (g *walkGraph) list(list []int32, loc string, m map[string]any, kw string) []int32 {
	arr, _ := m[kw].([]any)
	for i, v := range arr {
		if isSchema(v) {
			list = append(list, g.id(loc+"/"+kw+"/"+strconv.Itoa(i), v))
		}
	}
	return list
}

// named returns the names and subschemas of the object m holds under kw, in
// name order.
func (g *walkGraph) named(loc string, m map[string]any, kw string) ([]string, []int32) {
	obj, _ := m[kw].(map[string]any)
	var names []string
	var ids []int32
	for _, k := range sortedKeys(obj) {
		if isSchema(obj[k]) {
			names = append(names, k)
			ids = append(ids, g.id(jsontext.Join(loc, kw, k), obj[k]))
		}
	}
	return names, ids
}

// link records the edges of subschema i, the object m at loc. Keywords of
// every draft are read (a $ref's siblings too, which drafts before 2019-09
// ignore): counting more than the validator visits only makes the bound
// stricter.
func (g *walkGraph) link(i int32, loc string, m map[string]any) {
	n := walkNode{addl: -1, rest: -1}
	for _, kw := range [...]string{"not", "if", "then", "else"} {
		n.inPlace = g.add(n.inPlace, loc, m, kw)
	}
	for _, kw := range [...]string{"allOf", "anyOf", "oneOf"} {
		n.inPlace = g.list(n.inPlace, loc, m, kw)
	}
	for _, kw := range [...]string{"dependentSchemas", "dependencies"} {
		_, ids := g.named(loc, m, kw)
		n.inPlace = append(n.inPlace, ids...)
	}
	for _, t := range g.refs(loc, m) {
		if v := jsontext.At(g.doc, t); isSchema(v) {
			n.inPlace = append(n.inPlace, g.id(t, v))
		}
	}
	names, ids := g.named(loc, m, "properties")
	for j, k := range names {
		if n.props == nil {
			n.props = make(map[string]int32, len(names))
		}
		n.props[k] = ids[j]
	}
	names, ids = g.named(loc, m, "patternProperties")
	for j, k := range names {
		re, _ := regexp.Compile(k)
		n.patterns = append(n.patterns, walkPattern{re, ids[j]})
	}
	n.addl = g.one(loc, m, "additionalProperties")
	n.members = g.add(nil, loc, m, "unevaluatedProperties")
	n.others = g.add(nil, loc, m, "propertyNames")
	if _, ok := m["items"].([]any); ok { // draft 2019-09 and older
		n.prefix = g.list(nil, loc, m, "items")
		n.rest = g.one(loc, m, "additionalItems")
	} else {
		n.rest = g.one(loc, m, "items")
	}
	if _, ok := m["prefixItems"].([]any); ok {
		n.prefix = g.list(nil, loc, m, "prefixItems")
	}
	n.items = g.add(g.add(nil, loc, m, "contains"), loc, m, "unevaluatedItems")
	g.nodes[i] = n
}

// walkKeyword reports whether k is a keyword through which the validator
// may apply several subschemas to one value, or one subschema by several
// paths: in place ($ref, allOf, anyOf, oneOf, not, if, then, else,
// dependentSchemas, dependencies), or to members and items beside
// properties and items (patternProperties, unevaluatedProperties,
// unevaluatedItems, contains). In a document with none of them, each
// value meets one subschema by one path, with one step per level of the
// arguments: checkWalk cannot refuse it (one visit, and a chain no longer
// than MaxArgumentDepth+1, against MaxRefExpansion and MaxRefDepth).
func walkKeyword(k string) bool {
	switch k {
	case "$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies",
		"patternProperties", "unevaluatedProperties", "unevaluatedItems", "contains":
		return true
	}
	return false
}

// refKeyword reports whether onlyLocalRefs looks at keyword k: in a
// document with none of them, every reference is local.
func refKeyword(k string) bool {
	switch k {
	case "$id", "id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$ref":
		return true
	}
	return false
}

// sortedKeys returns the keys of a map, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// localRefs resolves "#" and "#/pointer" references without the validator,
// and is false when the document needs the validator's resolution: an "$id"
// below the root, an anchor, a dynamic reference, or a "$ref" to anything
// but the document and the built-in metaschemas.
func localRefs(doc any) (refTargets, bool) {
	if !onlyLocalRefs(doc, true) {
		return nil, false
	}
	return func(_ string, m map[string]any) []string {
		ref, _ := m["$ref"].(string)
		if ref == "#" {
			return []string{""}
		}
		if p, err := url.PathUnescape(strings.TrimPrefix(ref, "#")); err == nil && strings.HasPrefix(ref, "#/") {
			return []string{p}
		}
		return nil
	}, true
}

// localRefsOf is localRefs of a document whose keys are known: without a
// key onlyLocalRefs looks at, every reference is local (there is none).
func localRefsOf(doc any, keys docKeys) (refTargets, bool) {
	if keys&keysRef == 0 {
		return func(string, map[string]any) []string { return nil }, true
	}
	return localRefs(doc)
}

// onlyLocalRefs is localRefs' test, over every object of the document.
func onlyLocalRefs(v any, root bool) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			s, isString := c.(string)
			switch {
			case (k == "$id" || k == "id") && isString && !root,
				k == "$anchor" || k == "$dynamicAnchor" || k == "$dynamicRef" || k == "$recursiveRef" || k == "$recursiveAnchor",
				k == "$ref" && isString && s != "#" && !strings.HasPrefix(s, "#/") && !isMetaschemaURL(s):
				return false
			}
			if !onlyLocalRefs(c, false) {
				return false
			}
		}
	case []any:
		for _, c := range v {
			if !onlyLocalRefs(c, false) {
				return false
			}
		}
	}
	return true
}

// isMetaschemaURL reports whether a reference names a built-in draft
// metaschema (or a part of one).
func isMetaschemaURL(ref string) bool {
	return strings.HasPrefix(ref, "https://json-schema.org/") || strings.HasPrefix(ref, "http://json-schema.org/")
}

// walkEntry is a subschema and the number of paths by which the validator
// reaches it.
type walkEntry struct {
	node  int32
	count int
}

// walkFrontier is the multiset of subschemas the validator enters one value
// with (the root's, or those of a member or item), met first at depth of the
// arguments. Entries that only pass the value on to one other subschema
// (such as {"$ref": …}) are replaced by it, so places that refer to one
// definition share its frontier; the visits and chain links skipped are
// kept, the most any place skips.
type walkFrontier struct {
	entries []walkEntry
	depth   int
	skipped walkSkip
	done    bool
	total   int   // the visits of its closure
	chain   int   // the longest in-place chain of its closure
	next    []int // the frontiers of its members and items
}

// walkSkip is what forwarding entries skipped.
type walkSkip struct {
	visits, chain int
}

// walker explores the walk graph one frontier at a time, with scratch space
// indexed by subschema.
type walker struct {
	g     *walkGraph
	work  int
	epoch uint32
	stamp []uint32 // scratch below is valid where stamp == epoch
	count []int
	chain []int
	pos   []int
	order []int32
}

// checkWalk refuses a schema document (its references resolved by refs)
// whose validation could visit more than MaxRefExpansion subschemas for one
// value, or nest more than MaxRefDepth deep, with arguments nested up to
// MaxArgumentDepth. It explores the
// distinct frontiers the arguments can lead to, each once (a recursive
// schema's frontiers repeat, so their number stays near the schema's size),
// and counts each one's visits by propagating path counts over the
// subschemas applied in place, in topological order: linear in the graph,
// however many paths there are.
func checkWalk(doc any, refs refTargets) *boundError {
	g := newWalkGraph(doc, refs)
	n := len(g.nodes)
	w := &walker{g: g, stamp: make([]uint32, n), count: make([]int, n), chain: make([]int, n), pos: make([]int, n)}
	var frontiers []*walkFrontier
	index := map[string]int{}
	// add finds or adds the frontier of entries and returns its index.
	add := func(entries []walkEntry, depth int) (int, *boundError) {
		entries, skipped := w.forward(entries)
		entries, k := walkKey(entries)
		j, ok := index[k]
		if !ok {
			j = len(frontiers)
			index[k] = j
			frontiers = append(frontiers, &walkFrontier{entries: entries, depth: depth})
		}
		f := frontiers[j]
		f.skipped = walkSkip{max(f.skipped.visits, skipped.visits), max(f.skipped.chain, skipped.chain)}
		if f.done && f.total+f.skipped.visits > MaxRefExpansion {
			return j, g.tooManyVisits(f, depth)
		}
		return j, nil
	}
	if _, err := add([]walkEntry{{0, 1}}, 0); err != nil {
		return err
	}
	for i := 0; i < len(frontiers); i++ {
		f := frontiers[i]
		visits, total, chain := w.closure(f.entries)
		f.done, f.total, f.chain = true, total, chain
		if total+f.skipped.visits > MaxRefExpansion {
			return g.tooManyVisits(f, f.depth)
		}
		if w.work > walkBudget {
			return &boundError{"maxRefExpansion", "", "parameters schema combines its subschemas in too many ways to bound the validator's work"}
		}
		if f.depth >= MaxArgumentDepth {
			continue
		}
		for _, next := range w.successors(visits) {
			j, err := add(next, f.depth+1)
			if err != nil {
				return err
			}
			f.next = append(f.next, j)
		}
	}
	if d := longestChain(frontiers); d > MaxRefDepth {
		return &boundError{"maxRefDepth", "", fmt.Sprintf(
			"parameters schema lets the validator chain more than %d subschemas while checking arguments nested %d levels (each $ref, allOf, anyOf or oneOf branch and each level of the arguments adds one)",
			MaxRefDepth, MaxArgumentDepth)}
	}
	return nil
}

// tooManyVisits is the maxRefExpansion refusal of frontier f, met at depth.
func (g *walkGraph) tooManyVisits(f *walkFrontier, depth int) *boundError {
	at := g.locs[f.entries[0].node]
	value := "the arguments object"
	if depth > 0 {
		value = fmt.Sprintf("one value %d levels into the arguments", depth)
	}
	return &boundError{"maxRefExpansion", at, fmt.Sprintf(
		"parameters schema makes the validator visit more than %d subschemas for %s, from the subschema at %s: every path through $ref, allOf, anyOf, oneOf, not and if/then/else counts",
		MaxRefExpansion, value, jsontext.Display(at))}
}

// forward replaces each entry that only passes the value on (one in-place
// step and no other) by where it leads, and returns what that skipped.
func (w *walker) forward(entries []walkEntry) ([]walkEntry, walkSkip) {
	var skipped walkSkip
	for i, e := range entries {
		hops := 0
		for x := e.node; w.g.nodes[x].forwards() && hops <= len(w.g.nodes); hops++ {
			x = w.g.nodes[x].inPlace[0]
			entries[i].node = x
		}
		skipped.visits = min(skipped.visits+hops*e.count, MaxRefExpansion+1)
		skipped.chain = max(skipped.chain, hops)
	}
	return entries, skipped
}

// forwards reports whether a subschema only passes the value on to one other.
func (n *walkNode) forwards() bool {
	return len(n.inPlace) == 1 && n.props == nil && n.patterns == nil && n.addl < 0 && n.members == nil &&
		n.prefix == nil && n.rest < 0 && n.items == nil && n.others == nil
}

// closure adds to a frontier the subschemas applied in place, each with the
// number of paths that reach it (saturating past MaxRefExpansion), and
// returns them, the total, and the longest chain of in-place steps. A cycle
// of in-place steps (which the validator reports as an infinite loop) is
// followed once.
func (w *walker) closure(entries []walkEntry) (visits []walkEntry, total, chain int) {
	w.epoch++
	w.order = w.order[:0]
	type frame struct {
		node int32
		edge int
	}
	var stack []frame
	for _, e := range entries {
		if w.seen(e.node) {
			continue
		}
		stack = append(stack, frame{e.node, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			edges := w.g.nodes[top.node].inPlace
			if top.edge == len(edges) {
				w.order = append(w.order, top.node)
				stack = stack[:len(stack)-1]
				continue
			}
			next := edges[top.edge]
			top.edge++
			w.work++
			if !w.seen(next) {
				stack = append(stack, frame{next, 0})
			}
		}
	}
	slices.Reverse(w.order) // now topological: every edge but a cycle's goes forward
	for i, x := range w.order {
		w.pos[x], w.count[x], w.chain[x] = i, 0, 0
	}
	for _, e := range entries {
		w.count[e.node] = min(w.count[e.node]+e.count, MaxRefExpansion+1)
		w.chain[e.node] = 1
	}
	for _, x := range w.order {
		for _, y := range w.g.nodes[x].inPlace {
			if w.pos[y] > w.pos[x] {
				w.count[y] = min(w.count[y]+w.count[x], MaxRefExpansion+1)
				w.chain[y] = max(w.chain[y], w.chain[x]+1)
			}
		}
		visits = append(visits, walkEntry{x, w.count[x]})
		total = min(total+w.count[x], MaxRefExpansion+1)
		chain = max(chain, w.chain[x])
	}
	return visits, total, chain
}

// seen marks subschema i for this closure and reports whether it already was.
func (w *walker) seen(i int32) bool {
	if w.stamp[i] == w.epoch {
		return true
	}
	w.stamp[i] = w.epoch
	return false
}

// successors returns the frontiers of the members and items of a value whose
// closure is visits: one per property name that "properties" mention, one for
// any other name, one per position of "prefixItems", one for later items, one
// for the value's property names as strings. A name a pattern may match takes
// the pattern's subschema too; for other names every pattern is assumed to
// match.
func (w *walker) successors(visits []walkEntry) [][]walkEntry {
	var byName map[string][]walkEntry
	var memberRules, itemRules, others []walkEntry
	prefix := 0
	for _, v := range visits {
		n := &w.g.nodes[v.node]
		for k, t := range n.props {
			if byName == nil {
				byName = map[string][]walkEntry{}
			}
			byName[k] = append(byName[k], walkEntry{t, v.count})
		}
		if len(n.patterns) > 0 || n.addl >= 0 || len(n.members) > 0 {
			memberRules = append(memberRules, v)
		}
		if len(n.prefix) > 0 || n.rest >= 0 || len(n.items) > 0 {
			itemRules = append(itemRules, v)
			prefix = max(prefix, len(n.prefix))
		}
		others = addEntries(others, v.count, n.others...)
	}
	var out [][]walkEntry
	for _, name := range sortedKeys(byName) {
		next := byName[name]
		for _, v := range memberRules {
			next = w.g.nodes[v.node].member(name, v.count, next)
		}
		w.work += len(next) + len(memberRules)
		out = append(out, next)
	}
	if len(itemRules) > 0 {
		out = append(out, w.items(itemRules, prefix)...)
	}
	var other []walkEntry
	for _, v := range memberRules {
		n := &w.g.nodes[v.node]
		for _, p := range n.patterns {
			other = addEntries(other, v.count, p.to)
		}
		other = addEntries(other, v.count, append([]int32{n.addl}, n.members...)...)
	}
	return slices.DeleteFunc(append(out, other, others), func(e []walkEntry) bool { return len(e) == 0 })
}

// member adds to next the subschemas that node n applies to a member called
// name besides its "properties" entry: matching patterns, else
// additionalProperties, and unevaluatedProperties.
func (n *walkNode) member(name string, count int, next []walkEntry) []walkEntry {
	_, named := n.props[name]
	for _, p := range n.patterns {
		if p.re == nil || p.re.MatchString(name) {
			next = addEntries(next, count, p.to)
			named = true
		}
	}
	if !named {
		next = addEntries(next, count, n.addl)
	}
	return addEntries(next, count, n.members...)
}

// items returns the frontiers of a value's items: one per prefix position,
// and one for the items past every prefix.
func (w *walker) items(rules []walkEntry, prefix int) [][]walkEntry {
	var out [][]walkEntry
	for k := 0; k <= prefix; k++ {
		var next []walkEntry
		for _, v := range rules {
			n := &w.g.nodes[v.node]
			if k < len(n.prefix) {
				next = addEntries(next, v.count, n.prefix[k])
			} else {
				next = addEntries(next, v.count, n.rest)
			}
			next = addEntries(next, v.count, n.items...)
		}
		w.work += len(rules)
		out = append(out, next)
	}
	return out
}

// addEntries appends the subschemas (skipping -1) with count.
func addEntries(list []walkEntry, count int, nodes ...int32) []walkEntry {
	for _, x := range nodes {
		if x >= 0 {
			list = append(list, walkEntry{x, count})
		}
	}
	return list
}

// walkKey sorts a frontier's entries and merges repeats (in place), and
// returns them with the frontier's key.
func walkKey(entries []walkEntry) ([]walkEntry, string) {
	slices.SortFunc(entries, func(a, b walkEntry) int { return int(a.node) - int(b.node) })
	out := entries[:0]
	for _, e := range entries {
		if n := len(out); n > 0 && out[n-1].node == e.node {
			out[n-1].count = min(out[n-1].count+e.count, MaxRefExpansion+1)
			continue
		}
		out = append(out, e)
	}
	b := make([]byte, 0, 8*len(out))
	for _, e := range out {
		b = binary.AppendUvarint(b, uint64(e.node))
		b = binary.AppendUvarint(b, uint64(e.count))
	}
	return out, string(b)
}

// longestChain is the longest chain of subschemas along any path of at most
// MaxArgumentDepth steps from the root frontier: the sum of the frontiers'
// in-place chains (each step into a member or item adds its frontier's).
func longestChain(frontiers []*walkFrontier) int {
	best := make([]int, len(frontiers))
	for i := range best {
		best[i] = -1
	}
	chain := func(f *walkFrontier) int { return f.chain + f.skipped.chain }
	best[0] = chain(frontiers[0])
	longest := best[0]
	for round := 0; round < MaxArgumentDepth && longest <= MaxRefDepth; round++ {
		grown := false
		next := slices.Clone(best)
		for i, f := range frontiers {
			if best[i] < 0 {
				continue
			}
			for _, j := range f.next {
				if d := best[i] + chain(frontiers[j]); d > next[j] {
					next[j], grown = d, true
					longest = max(longest, d)
				}
			}
		}
		if !grown {
			break
		}
		best = next
	}
	return longest
}
