package core

// The fast path's compiler: a parameters schema, already compiled for the
// validator, compiled once more into fastNodes that check arguments on
// their bytes (fastpath.go). It covers the keywords real tools use and
// declines everything else; a declined schema validates as before.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// fastSchema is a parameters schema compiled for the fast path.
type fastSchema struct {
	root  *fastNode
	known nameIndex // the top-level keys that survive (with keepKey's patterns)
}

// fastNode is one subschema. Its checks run in the validator's order: a
// false schema, "type" (which alone is reported when it fails), then the
// other assertions, then "$ref", "allOf", "anyOf" and "oneOf" in place.
type fastNode struct {
	never bool // the false schema

	hasType bool
	kinds   jsonKinds // accepted types; kindInteger alone accepts integral numbers
	typeMsg string    // "expected string or null, but got "
	// typeTail ends a type issue: what the schema accepts beyond the type
	// ("; it takes one of \"a\", \"b\""), or ""
	typeTail string

	hasConst bool
	constant fastLit
	constMsg string
	hasEnum  bool
	enum     []fastLit
	enumMsg  string
	noEnum   bool // "enum": [] refuses everything

	bounds     []fastBound
	multipleOf *fastBound

	minLength, maxLength int // -1 when absent
	pattern              *regexp.Regexp
	patternMsg           string

	props                   []fastProp // sorted by name
	propNames               nameIndex
	required                []string
	requiredMsg             []string // for each required name, its issue's message tail (requiredText)
	requiredProp            []int    // for each required name, its index in props, or -1
	additional              *fastNode
	noAdditional            bool
	minProperties, maxProps int

	prefix             []*fastNode
	items              *fastNode
	minItems, maxItems int
	unique             bool

	ref   *fastNode
	allOf []*fastNode
	anyOf []*fastNode
	oneOf []*fastNode

	typeOnly bool // only "type" (and annotations): an anyOf/oneOf of these is simple
}

// fastProp is one entry of "properties".
type fastProp struct {
	name string
	node *fastNode
}

// fastLit is one value of "enum" or "const".
type fastLit struct {
	value any    // as the schema was decoded
	str   []byte // a string's bytes
	num   []byte // a number's literal
}

// fastBound is one number check: its keyword, bound and message prefix.
type fastBound struct {
	keyword string
	dec     decimal // the bound
	msg     string  // "must be >= 1 but found "; multipleOf: " not multipleOf 5"
}

// fastCompiler builds the fastNode graph of one document.
type fastCompiler struct {
	doc    any
	memo   map[string]*fastNode
	ok     bool
	draft7 bool // "$schema" names draft-07: "$ref" overrides its siblings, no "prefixItems"
}

// compileFast compiles a decoded parameters schema for the fast path, or
// returns nil when it uses anything the fast path does not cover.
func compileFast(doc any) *fastSchema {
	c := &fastCompiler{doc: doc, memo: map[string]*fastNode{}, ok: true}
	if m, isMap := doc.(map[string]any); isMap {
		if s, has := m["$schema"]; has {
			c.draft7 = isDraft07(s)
			if !c.draft7 && !isDraft2020(s) {
				return nil
			}
		}
	}
	root := c.node("", 0)
	if !c.ok || inPlaceCycle(root) {
		return nil
	}
	for loc, n := range c.memo {
		raw := jsontext.At(doc, loc)
		props, _ := jsontext.At(raw, "/properties").(map[string]any)
		for _, name := range n.required {
			n.requiredProp = append(n.requiredProp, n.propNames.find([]byte(name)))
			n.requiredMsg = append(n.requiredMsg, requiredText(doc, props[name]))
		}
		if n.hasType {
			n.typeTail = typeTail(doc, raw)
		}
	}
	return &fastSchema{root: root}
}

// isDraft2020 reports whether a "$schema" names draft 2020-12, the default.
func isDraft2020(s any) bool {
	u, _ := s.(string)
	return strings.TrimSuffix(u, "#") == "https://json-schema.org/draft/2020-12/schema"
}

// isDraft07 reports whether a "$schema" names draft-07, as MCP servers
// built with zod-to-json-schema declare it.
func isDraft07(s any) bool {
	u, _ := s.(string)
	u = strings.TrimSuffix(u, "#")
	return u == "http://json-schema.org/draft-07/schema" || u == "https://json-schema.org/draft-07/schema"
}

// fastDeclined are the keywords that make the compiler decline: the
// validator gives them meaning the fast path does not reproduce.
var fastDeclined = map[string]bool{
	"$id": true, "$anchor": true, "$dynamicAnchor": true, "$dynamicRef": true, "$recursiveRef": true,
	"$recursiveAnchor": true, "$vocabulary": true, "not": true, "if": true, "then": true, "else": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true, "propertyNames": true,
	"patternProperties": true, "regexProperties": true, "unevaluatedProperties": true,
	"unevaluatedItems": true, "contains": true, "minContains": true, "maxContains": true,
}

// maxFastDepth bounds the nesting of subschemas the compiler follows.
const maxFastDepth = 200

// node compiles the subschema at loc (memoised, so that recursion through
// $ref makes a cyclic graph).
func (c *fastCompiler) node(loc string, depth int) *fastNode {
	if n, ok := c.memo[loc]; ok {
		return n
	}
	if depth > maxFastDepth || len(c.memo) > 4*MaxSchemaObjects {
		c.ok = false
		return &fastNode{}
	}
	n := &fastNode{minLength: -1, maxLength: -1, minProperties: -1, maxProps: -1, minItems: -1, maxItems: -1}
	c.memo[loc] = n
	switch v := jsontext.At(c.doc, loc).(type) {
	case bool:
		n.never = !v
	case map[string]any:
		if loc != "" {
			if _, has := v["$schema"]; has {
				c.ok = false
			}
		}
		c.keywords(n, loc, v, depth)
	default:
		c.ok = false
	}
	return n
}

// keywords compiles the keywords of one subschema object.
func (c *fastCompiler) keywords(n *fastNode, loc string, m map[string]any, depth int) {
	n.typeOnly = true
	_, hasRef := m["$ref"]
	for _, kw := range sortedSchemaKeys(m) {
		v := m[kw]
		if fastDeclined[kw] || c.draft7 && (kw == "prefixItems" || hasRef && kw != "$ref" && !fastAnnotation(kw)) {
			// (draft-07's validator ignores a "$ref"'s siblings and "prefixItems")
			c.ok = false
			return
		}
		if !fastAnnotation(kw) && kw != "type" {
			n.typeOnly = false
		}
		switch kw {
		case "type":
			c.ok = c.ok && n.setType(v)
		case "enum", "const":
			c.ok = c.ok && n.setValues(kw, v)
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			c.ok = c.ok && n.setBound(kw, v)
		case "minLength", "maxLength", "minProperties", "maxProperties", "minItems", "maxItems":
			c.ok = c.ok && n.setCount(kw, v)
		case "pattern":
			c.ok = c.ok && n.setPattern(v)
		case "uniqueItems":
			b, ok := v.(bool)
			n.unique, c.ok = b, c.ok && ok
		case "required":
			c.ok = c.ok && n.setRequired(v)
		default:
			c.subschemas(n, loc, kw, v, depth)
		}
	}
}

// fastAnnotation reports whether a keyword asserts nothing (the validator
// ignores it, or toolgate makes it an annotation).
func fastAnnotation(kw string) bool {
	switch kw {
	case "title", "description", "default", "examples", "format", "deprecated", "readOnly", "writeOnly",
		"$comment", "$defs", "definitions", "$schema", "contentEncoding", "contentMediaType", "contentSchema":
		return true
	}
	return false
}

// subschemas compiles the keywords that hold subschemas; any other keyword
// is an annotation the validator ignores.
func (c *fastCompiler) subschemas(n *fastNode, loc, kw string, v any, depth int) {
	child := func(rest string) *fastNode { return c.node(loc+"/"+rest, depth+1) }
	switch kw {
	case "properties":
		props, ok := v.(map[string]any)
		c.ok = c.ok && ok
		for _, name := range sortedSchemaKeys(props) {
			n.props = append(n.props, fastProp{name: name, node: child("properties/" + jsontext.Escape(name))})
			n.propNames = append(n.propNames, name)
		}
	case "additionalProperties":
		if b, ok := v.(bool); ok {
			n.noAdditional = !b
		} else {
			n.additional = child(kw)
		}
	case "items":
		n.items = child(kw)
	case "prefixItems", "allOf", "anyOf", "oneOf":
		list, ok := v.([]any)
		c.ok = c.ok && ok && len(list) > 0
		var nodes []*fastNode
		for i := range list {
			nodes = append(nodes, child(fmt.Sprintf("%s/%d", kw, i)))
		}
		switch kw {
		case "prefixItems":
			n.prefix = nodes
		case "allOf":
			n.allOf = nodes
		case "anyOf":
			n.anyOf = nodes
		default:
			n.oneOf = nodes
		}
	case "$ref":
		ref, _ := v.(string)
		target, ok := localPointer(ref)
		c.ok = c.ok && ok
		if ok {
			n.ref = c.node(target, depth+1)
		}
	}
}

// setType reads "type".
func (n *fastNode) setType(v any) bool {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return false
			}
			names = append(names, s)
		}
	default:
		return false
	}
	k, ok := kindsOfType(v)
	n.hasType, n.kinds = true, k
	n.typeMsg = "expected " + strings.Join(names, " or ") + ", but got "
	return ok && len(names) > 0
}

// setValues reads "enum" or "const", with the validator's messages.
func (n *fastNode) setValues(kw string, v any) bool {
	if kw == "const" {
		n.hasConst, n.constant = true, newFastLit(v)
		n.constMsg = "const failed"
		if !isComposite(v) {
			n.constMsg = fmt.Sprintf("value must be %#v", v)
		}
		return true
	}
	list, ok := v.([]any)
	if !ok {
		return false
	}
	if len(list) == 0 {
		n.noEnum = true
		return true
	}
	n.hasEnum = true
	quoted := make([]string, len(list))
	primitive := true
	for i, e := range list {
		n.enum = append(n.enum, newFastLit(e))
		quoted[i] = fmt.Sprintf("%#v", e)
		primitive = primitive && !isComposite(e)
	}
	switch {
	case !primitive:
		n.enumMsg = "enum failed"
	case len(list) == 1:
		n.enumMsg = "value must be " + quoted[0]
	default:
		n.enumMsg = "value must be one of " + strings.Join(quoted, ", ")
	}
	return true
}

func isComposite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func newFastLit(v any) fastLit {
	l := fastLit{value: v}
	switch x := v.(type) {
	case string:
		l.str = []byte(x)
	case json.Number:
		l.num = []byte(x)
	}
	return l
}

// boundMessages are the validator's messages, %v the bound as the schema
// spells it (boundLiteral; the validator's own messages print a float64).
var boundMessages = map[string]string{
	"minimum": "must be >= %v but found ", "exclusiveMinimum": "must be > %v but found ",
	"maximum": "must be <= %v but found ", "exclusiveMaximum": "must be < %v but found ",
	"multipleOf": " not multipleOf %v",
}

// setBound reads a number keyword. (Draft-4 boolean exclusive bounds need
// "$schema", which the compiler declines.)
func (n *fastNode) setBound(kw string, v any) bool {
	num, ok := v.(json.Number)
	if !ok {
		return false
	}
	dec := parseDecimal([]byte(num))
	if !jsontext.ValidNumber(string(num)) || kw == "multipleOf" && dec.signum() <= 0 {
		return false
	}
	b := fastBound{keyword: kw, dec: dec, msg: strings.Replace(boundMessages[kw], "%v", boundLiteral(string(num)), 1)}
	if kw == "multipleOf" {
		n.multipleOf = &b
	} else {
		n.bounds = append(n.bounds, b)
	}
	return true
}

// setCount reads a length or count keyword as the validator does (its
// float value truncated to an int).
func (n *fastNode) setCount(kw string, v any) bool {
	num, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := num.Float64()
	if err != nil || f < 0 || f > 1<<31 {
		return false
	}
	i := int(f)
	switch kw {
	case "minLength":
		n.minLength = i
	case "maxLength":
		n.maxLength = i
	case "minProperties":
		n.minProperties = i
	case "maxProperties":
		n.maxProps = i
	case "minItems":
		n.minItems = i
	default:
		n.maxItems = i
	}
	return true
}

// setPattern reads "pattern" (RE2, as the validator compiles it).
func (n *fastNode) setPattern(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return false
	}
	n.pattern, n.patternMsg = re, "does not match pattern "+validatorQuote(re.String())
	return true
}

// validatorQuote is the validator's quoting of a name or pattern in its
// messages: Go's %q with single quotes.
func validatorQuote(s string) string {
	s = fmt.Sprintf("%q", s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}

// setRequired reads "required".
func (n *fastNode) setRequired(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return false
		}
		n.required = append(n.required, s)
	}
	return true
}

// inPlaceCycle reports whether $ref, allOf, anyOf or oneOf lead from a
// subschema back to itself without descending into the arguments (the
// validator reports such a loop as an invalid schema), or an anyOf or oneOf
// is not simple (see simpleUnion).
func inPlaceCycle(root *fastNode) bool {
	all := map[*fastNode]bool{}
	var collect func(n *fastNode)
	collect = func(n *fastNode) {
		if all[n] {
			return
		}
		all[n] = true
		for _, c := range append(n.inPlace(), n.children()...) {
			collect(c)
		}
	}
	collect(root)
	const visiting, done = 1, 2
	state := map[*fastNode]int{}
	var cyclic func(n *fastNode) bool
	cyclic = func(n *fastNode) bool {
		switch state[n] {
		case visiting:
			return true
		case done:
			return false
		}
		state[n] = visiting
		for _, c := range n.inPlace() {
			if cyclic(c) {
				return true
			}
		}
		state[n] = done
		return false
	}
	for n := range all {
		for _, u := range [][]*fastNode{n.anyOf, n.oneOf} {
			if len(u) > 0 && !simpleUnion(u) {
				return true
			}
		}
		if cyclic(n) {
			return true
		}
	}
	return false
}

// inPlace lists the subschemas that apply to the same value as n.
func (n *fastNode) inPlace() []*fastNode {
	out := append(append(append([]*fastNode(nil), n.allOf...), n.anyOf...), n.oneOf...)
	if n.ref != nil {
		out = append(out, n.ref)
	}
	return out
}

// children lists the subschemas that apply to values inside n's.
func (n *fastNode) children() []*fastNode {
	out := append([]*fastNode(nil), n.prefix...)
	for _, p := range n.props {
		out = append(out, p.node)
	}
	for _, c := range []*fastNode{n.additional, n.items} {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// simpleUnion reports whether an anyOf or oneOf is one the fast path
// covers: every branch only a "type", or every branch (through $refs that
// are all a subschema says) of types no other branch has, an integer being
// a number.
func simpleUnion(branches []*fastNode) bool {
	allTypes := true
	var seen jsonKinds
	disjoint := true
	for _, b := range branches {
		allTypes = allTypes && b.typeOnly && b.hasType
		r := b.resolved()
		if r == nil || !r.never && !r.hasType {
			disjoint = false
			continue
		}
		k := r.kinds
		if r.never {
			k = 0
		}
		if k&kindInteger != 0 {
			k |= kindNumber
		}
		k &^= kindInteger
		if seen&k != 0 {
			disjoint = false
		}
		seen |= k
	}
	return allTypes || disjoint
}

// resolved follows a chain of subschemas that are only a "$ref" to the one
// that says something; nil for a chain too long.
func (n *fastNode) resolved() *fastNode {
	for i := 0; i < 16; i++ {
		if !n.onlyRef() {
			return n
		}
		n = n.ref
	}
	return nil
}

// onlyRef reports whether n asserts nothing but its "$ref".
func (n *fastNode) onlyRef() bool {
	return n.ref != nil && !n.never && !n.hasType && !n.hasConst && !n.hasEnum && !n.noEnum &&
		len(n.bounds) == 0 && n.multipleOf == nil && n.minLength < 0 && n.maxLength < 0 && n.pattern == nil &&
		len(n.props) == 0 && len(n.required) == 0 && n.additional == nil && !n.noAdditional &&
		n.minProperties < 0 && n.maxProps < 0 && len(n.prefix) == 0 && n.items == nil &&
		n.minItems < 0 && n.maxItems < 0 && !n.unique && len(n.allOf) == 0 && len(n.anyOf) == 0 && len(n.oneOf) == 0
}

// nameIndex is a sorted list of names, searched by a key's bytes: one by
// one for a few (the length compared first), by halving for more.
type nameIndex []string

// find returns the index of key, -1 when it is not listed.
func (x nameIndex) find(key []byte) int {
	if len(x) <= 8 {
		for i, name := range x {
			if len(name) == len(key) && name == string(key) {
				return i
			}
		}
		return -1
	}
	lo, hi := 0, len(x)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x[m] < string(key) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(x) && x[lo] == string(key) {
		return lo
	}
	return -1
}

// indexPlans gives each plan of the graph its member index, for the fast
// path's lookups by bytes.
func indexPlans(p *coercePlan, seen map[*coercePlan]bool) {
	if p == nil || seen[p] {
		return
	}
	seen[p] = true
	p.names = nameIndex(sortedKeys(p.props))
	p.kids = make([]*coercePlan, len(p.names))
	for i, name := range p.names {
		p.kids[i] = p.props[name]
	}
	for _, c := range append(append(append([]*coercePlan(nil), p.kids...), p.other, p.items), p.prefix...) {
		indexPlans(c, seen)
	}
}

// memberBytes is member for a key's bytes (the plan indexed).
func (p *coercePlan) memberBytes(key []byte) *coercePlan {
	if i := p.names.find(key); i >= 0 {
		return p.kids[i]
	}
	return p.other
}

// localPointer turns a "$ref" into a JSON pointer into the document: "#"
// and "#/pointer" (percent-decoded, as the validator reads a URI
// fragment); false for any other reference.
func localPointer(ref string) (string, bool) {
	if ref == "#" {
		return "", true
	}
	if !strings.HasPrefix(ref, "#/") {
		return "", false
	}
	ptr, err := url.PathUnescape(ref[1:])
	return ptr, err == nil
}
