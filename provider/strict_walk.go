package provider

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// strictWalk is one run of the strict transform over a schema document.
type strictWalk struct {
	tool    string
	root    *schemaObj       // the original document
	defs    map[string]int32 // "#/$defs/name" → node of that definition
	nodes   []strictNode
	changes []Change
	refused *Change
	unions  []strictUnion // anyOf nodes, checked once every node is built

	properties, enumValues, stringSize int

	nullRefs map[string]int8 // refAcceptsNull's memo: 1 computing, 2 yes, 3 no
}

// strictUnion is an anyOf node and its path, for ambiguousUnion.
type strictUnion struct {
	id   int32
	path string
}

// strictAt is where the walk is: the pointer, the JSON depth (against
// MaxSchemaDepth) and the object nesting (against strictMaxNesting).
type strictAt struct {
	path        string
	depth, nest int
}

func (a strictAt) in(tokens ...string) strictAt {
	return strictAt{path: pointerTo(a.path, tokens...), depth: a.depth + len(tokens), nest: a.nest}
}

func newStrictWalk(tool string, root *schemaObj) *strictWalk {
	return &strictWalk{tool: tool, root: root, defs: map[string]int32{}}
}

func (w *strictWalk) newNode() int32 {
	w.nodes = append(w.nodes, strictNode{ref: -1, items: -1})
	return int32(len(w.nodes) - 1)
}

func (w *strictWalk) refuse(path, keyword, why string) {
	if w.refused == nil {
		w.refused = &Change{Tool: w.tool, Path: path, Kind: ChangeStrictRefused, Keyword: keyword, Message: "strict mode cannot express this schema: " + why}
	}
}

func (w *strictWalk) change(path string, kind ChangeKind, keyword, msg string) {
	w.changes = append(w.changes, Change{Tool: w.tool, Path: path, Kind: kind, Keyword: keyword, Message: msg})
}

// run transforms the root: an object, not a union, with its definitions.
func (w *strictWalk) run() any {
	root := w.newNode()
	if t, ok := w.root.get("type"); !ok || t != "object" {
		w.refuse("", "type", `the root schema must have "type": "object"`)
		return nil
	}
	if w.root.has("anyOf") || w.root.has("oneOf") || w.root.has("$ref") {
		w.refuse("", "anyOf", "the root schema must be an object, not a union or a reference")
		return nil
	}
	// Every definition gets its node first, so a $ref anywhere finds it.
	for _, kw := range []string{"$defs", "definitions"} {
		if defs := w.root.obj(kw); defs != nil {
			for _, name := range defs.keys {
				w.defs["#/"+kw+"/"+jsontext.Escape(name)] = w.newNode()
			}
		}
	}
	return w.nodeInto(w.root, strictAt{}, root)
}

// defsInto transforms the root's definitions, each into its node.
func (w *strictWalk) defsInto(o *schemaObj, kw string, at strictAt) {
	defs := o.obj(kw)
	if defs == nil {
		w.refuse(pointerTo(at.path, kw), kw, kw+" must be an object of schemas")
		return
	}
	out := newSchemaObj()
	for _, name := range defs.keys {
		w.stringSize += utf8.RuneCountInString(name)
		id := w.defs["#/"+kw+"/"+jsontext.Escape(name)]
		out.set(name, w.nodeInto(defs.vals[name], strictAt{path: pointerTo(at.path, kw, name), depth: at.depth + 2}, id))
	}
	o.set(kw, out)
}

// node transforms one subschema into a new restore node.
func (w *strictWalk) node(v any, at strictAt) (any, int32) {
	id := w.newNode()
	return w.nodeInto(v, at, id), id
}

// nodeInto transforms one subschema, recording its restore in node id.
func (w *strictWalk) nodeInto(v any, at strictAt, id int32) any {
	if w.refused != nil {
		return v
	}
	if at.depth > core.MaxSchemaDepth {
		w.refuse(at.path, "maxDepth", "the schema is nested too deeply")
		return v
	}
	src, ok := v.(*schemaObj)
	if !ok {
		w.refuse(at.path, "type", "every subschema must be an object with a type (a boolean schema cannot be expressed)")
		return v
	}
	o := src.clone()
	w.keywords(o, at)
	if w.refused != nil {
		return v
	}
	if at.path == "" {
		for _, kw := range []string{"$defs", "definitions"} {
			if o.has(kw) {
				w.defsInto(o, kw, at)
			}
		}
	}
	switch {
	case o.has("$ref"):
		w.ref(o, at, id)
	case o.has("anyOf"):
		w.anyOf(o, at, id)
	default:
		w.typed(o, at, id)
	}
	return o
}

// keywords applies the per-keyword rules to o: refused keywords refuse,
// null-valued keys are removed, oneOf becomes anyOf, unsupported
// validation keywords move into the description, and other keywords strict
// mode does not know are dropped.
func (w *strictWalk) keywords(o *schemaObj, at strictAt) {
	for _, k := range append([]string(nil), o.keys...) {
		v := o.vals[k]
		path := pointerTo(at.path, k)
		if why, bad := strictRefused[k]; bad {
			w.refuse(path, k, why)
			return
		}
		switch {
		case v == nil && k != "const":
			o.del(k)
			w.change(path, ChangeNullRemoved, k, fmt.Sprintf("%q was null, which strict mode does not accept; left out", k))
		case k == "oneOf":
			if o.has("anyOf") {
				w.refuse(path, k, "a schema with both anyOf and oneOf cannot be expressed")
				return
			}
			o.rename("oneOf", "anyOf")
			w.change(path, ChangeUnionFlattened, k, "oneOf written as anyOf, which strict mode supports; toolgate still checks that exactly one branch matches")
		case (k == "$defs" || k == "definitions") && at.path != "":
			o.del(k)
			w.change(path, ChangeKeywordDropped, k, "definitions below the root are not supported; a $ref may only point into the root's")
		case k == "enum" || k == "const":
			w.countValues(k, v, path)
		case w.describeUnsupported(o, k, v, path):
		case !strictKept[k] && !(at.path == "" && strictRootKept[k]):
			o.del(k)
			w.change(path, ChangeKeywordDropped, k, fmt.Sprintf("%q is not a keyword strict mode accepts; left out", k))
		}
		if w.refused != nil {
			return
		}
	}
}

// describeUnsupported moves k into o's description when strict mode does
// not accept it but a model should still read it, and reports whether it
// did.
func (w *strictWalk) describeUnsupported(o *schemaObj, k string, v any, path string) bool {
	switch k {
	case "format":
		if s, ok := v.(string); ok && strictFormats[s] {
			return false
		}
	case "pattern":
		if s, ok := v.(string); ok && !hasLookaround(s) {
			return false
		}
	case "minLength", "maxLength", "minProperties", "maxProperties", "uniqueItems":
	default:
		return false
	}
	o.del(k)
	if k == "uniqueItems" && v != true {
		w.change(path, ChangeKeywordDropped, k, "uniqueItems false asks nothing; left out")
		return true
	}
	addDescription(o, describeKeyword(k, v))
	w.change(path, ChangeKeywordDescribed, k, fmt.Sprintf("strict mode does not accept %q here; written into the description (toolgate still checks it)", k))
	return true
}

// countValues adds an enum's or const's values to the limits.
func (w *strictWalk) countValues(k string, v any, path string) {
	values := []any{v}
	if k == "enum" {
		list, ok := v.([]any)
		if !ok {
			w.refuse(path, k, "enum must be a list")
			return
		}
		values = list
		w.enumValues += len(list)
	}
	size, allStrings := 0, true
	for _, e := range values {
		if s, ok := e.(string); ok {
			size += utf8.RuneCountInString(s)
		} else {
			allStrings = false
			size += len(appendSchemaTree(nil, e))
		}
	}
	w.stringSize += size
	switch {
	case w.enumValues > strictMaxEnumValues:
		w.refuse(path, "maxEnumValues", fmt.Sprintf("a schema may have at most %d enum values in all", strictMaxEnumValues))
	case k == "enum" && allStrings && len(values) > strictLargeEnum && size > strictMaxLargeEnumSize:
		w.refuse(path, "maxEnumSize", fmt.Sprintf("an enum of more than %d strings may total at most %d characters", strictLargeEnum, strictMaxLargeEnumSize))
	case w.stringSize > strictMaxStringSize:
		w.refuse(path, "maxStringSize", fmt.Sprintf("property names, definition names, enum and const values may total at most %d characters", strictMaxStringSize))
	}
}

// ref checks a $ref: local, to the root or one of its definitions, with
// only annotations beside it.
func (w *strictWalk) ref(o *schemaObj, at strictAt, id int32) {
	ref, _ := o.vals["$ref"].(string)
	target, ok := int32(0), ref == "#"
	if !ok {
		target, ok = w.defs[ref]
	}
	if !ok {
		w.refuse(pointerTo(at.path, "$ref"), "$ref", fmt.Sprintf("$ref %q does not point to the root or one of its definitions", ref))
		return
	}
	for _, k := range o.keys {
		if k != "$ref" && !annotationKeys[k] {
			w.refuse(pointerTo(at.path, k), k, fmt.Sprintf("%q beside $ref cannot be expressed", k))
			return
		}
	}
	w.nodes[id].ref = target
}

// anyOf transforms each branch of a union with only annotations beside it.
func (w *strictWalk) anyOf(o *schemaObj, at strictAt, id int32) {
	list, ok := o.vals["anyOf"].([]any)
	if !ok || len(list) == 0 {
		w.refuse(pointerTo(at.path, "anyOf"), "anyOf", "anyOf must be a non-empty list")
		return
	}
	for _, k := range o.keys {
		if k != "anyOf" && !annotationKeys[k] {
			w.refuse(pointerTo(at.path, k), k, fmt.Sprintf("%q beside anyOf cannot be expressed; move it into each branch", k))
			return
		}
	}
	out := make([]any, len(list))
	branches := make([]int32, len(list))
	for i, b := range list {
		out[i], branches[i] = w.node(b, at.in("anyOf", fmt.Sprint(i)))
	}
	o.set("anyOf", out)
	w.nodes[id].anyOf = branches
	w.unions = append(w.unions, strictUnion{id: id, path: at.path})
}

// typed checks a node's type and transforms an object's properties and an
// array's items.
func (w *strictWalk) typed(o *schemaObj, at strictAt, id int32) {
	names, ok := typeNames(o)
	if !ok {
		if o.has("type") {
			w.refuse(pointerTo(at.path, "type"), "type", "type must name JSON types")
			return
		}
		if !o.has("enum") && !o.has("const") {
			w.refuse(at.path, "type", "every subschema must have a type (a schema that accepts anything cannot be expressed)")
			return
		}
	}
	if containsString(names, "object") {
		w.nodes[id].isObject = true
		w.object(o, at, id)
	}
	if containsString(names, "array") {
		w.nodes[id].isArray = true
		w.array(o, at, id)
	}
}

// array transforms an array's one items schema.
func (w *strictWalk) array(o *schemaObj, at strictAt, id int32) {
	items, ok := o.vals["items"].(*schemaObj)
	if !ok {
		w.refuse(pointerTo(at.path, "items"), "items", "an array must have one items schema")
		return
	}
	out, child := w.node(items, at.in("items"))
	o.set("items", out)
	w.nodes[id].items = child
}

// sortedStrings returns a sorted copy.
func sortedStrings(list []string) []string {
	s := append([]string(nil), list...)
	sort.Strings(s)
	return s
}

// keySet names a set of property names, for comparing unions' branches.
func keySet(keys []string) string {
	return strings.Join(sortedStrings(keys), "\x00")
}

// rawJSON is for messages.
func rawJSON(v any) string { return string(appendSchemaTree(nil, v)) }
