package provider

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// node transforms one subschema. path is its place in params (inside a
// definition when reached through a $ref), depth the nesting so far, stack
// the $refs being inlined around it.
func (g *geminiWalk) node(v any, path string, depth int, stack []string) any {
	g.nodes++
	if depth > core.MaxSchemaDepth || g.nodes > geminiMaxNodes {
		g.change(path, ChangeSchemaRefused, "maxDepth", "the schema nests or inlines too deeply for Gemini's subset; written as the loosest schema of its type")
		return g.loosest(v)
	}
	src, ok := v.(*schemaObj)
	if !ok {
		if v == true {
			g.change(path, ChangeKeywordRewritten, "type", "the schema true (any value) written as an anyOf of every type")
			return geminiAny()
		}
		g.change(path, ChangeSchemaRefused, "type", "a schema that is not an object cannot be written in Gemini's subset; written as the loosest schema")
		return geminiAny()
	}
	o := src.clone()
	if o.has("$ref") {
		return g.ref(o, path, depth, stack)
	}
	g.merge(o, path, stack)
	g.keywords(o, path)
	if g.typeOf(o, path) {
		return o
	}
	g.enum(o, path)
	g.format(o, path)
	g.children(o, path, depth, stack)
	g.required(o, path)
	return o
}

// ref inlines a $ref: the target, with the $ref's siblings laid over it,
// transformed in its place. A cycle or a reference that does not resolve is
// refused with the loosest schema.
func (g *geminiWalk) ref(o *schemaObj, path string, depth int, stack []string) any {
	ref, _ := o.vals["$ref"].(string)
	at := pointerTo(path, "$ref")
	target, tpath, ok := g.resolve(ref)
	if !ok {
		g.change(at, ChangeSchemaRefused, "$ref", fmt.Sprintf("$ref %q does not point into this schema; written as the loosest schema", ref))
		o.del("$ref")
		return g.loosest(o)
	}
	for _, r := range stack {
		if r == ref {
			g.change(at, ChangeSchemaRefused, "$ref", fmt.Sprintf("$ref %q is recursive, which Gemini's subset cannot express; the recursion is cut here with the loosest schema of its type", ref))
			return g.loosest(target)
		}
	}
	g.change(at, ChangeRefInlined, "$ref", fmt.Sprintf("$ref %q replaced by the schema it points to", ref))
	merged := newSchemaObj()
	if t, ok := target.(*schemaObj); ok {
		merged = t.clone()
	} else if target != true {
		g.change(at, ChangeSchemaRefused, "$ref", fmt.Sprintf("$ref %q points to no schema; written as the loosest schema", ref))
		return geminiAny()
	}
	for _, k := range o.keys {
		if k != "$ref" {
			merged.set(k, o.vals[k])
		}
	}
	return g.node(merged, tpath, depth+1, append(stack[:len(stack):len(stack)], ref))
}

// resolve finds what a local $ref ("#" and a JSON Pointer, possibly
// percent-encoded) points to in the original schema, and its path.
func (g *geminiWalk) resolve(ref string) (any, string, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, "", false
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil || (ptr != "" && !strings.HasPrefix(ptr, "/")) {
		return nil, "", false
	}
	var cur any = g.root
	for _, tok := range jsontext.Tokens(ptr) {
		switch x := cur.(type) {
		case *schemaObj:
			v, ok := x.vals[tok]
			if !ok {
				return nil, "", false
			}
			cur = v
		case []any:
			i, ok := jsontext.Index(tok)
			if !ok || i >= len(x) {
				return nil, "", false
			}
			cur = x[i]
		default:
			return nil, "", false
		}
	}
	return cur, ptr, true
}

// loosest returns the loosest Gemini schema of the type v declares: an
// OBJECT with no properties for an object (or when v declares none that
// can be told), with v's description.
func (g *geminiWalk) loosest(v any) any {
	o, _ := v.(*schemaObj)
	if o == nil {
		return geminiAny()
	}
	desc := o.str("description")
	t := declaredType(o)
	switch t {
	case "", "object", "null":
		return geminiObject(desc)
	case "array":
		out := newSchemaObj()
		out.set("type", "ARRAY")
		if desc != "" {
			out.set("description", desc)
		}
		out.set("items", geminiObject(""))
		return out
	}
	out := newSchemaObj()
	out.set("type", strings.ToUpper(t))
	if desc != "" {
		out.set("description", desc)
	}
	return out
}

// declaredType is the first non-null type o names, or one inferred from
// its keywords, or "".
func declaredType(o *schemaObj) string {
	if names, ok := typeNames(o); ok {
		for _, n := range names {
			if n != "null" {
				return n
			}
		}
		return "null"
	}
	return inferType(o)
}

// geminiAny is Gemini's nearest to a schema that accepts any value: an
// anyOf of every type.
func geminiAny() *schemaObj {
	branch := func(t string) *schemaObj {
		b := newSchemaObj()
		b.set("type", t)
		if t == "ARRAY" {
			items := newSchemaObj()
			items.set("type", "STRING")
			b.set("items", items)
		}
		return b
	}
	o := newSchemaObj()
	o.set("anyOf", []any{branch("STRING"), branch("NUMBER"), branch("BOOLEAN"), branch("OBJECT"), branch("ARRAY")})
	return o
}

// children transforms properties, items and anyOf branches.
func (g *geminiWalk) children(o *schemaObj, path string, depth int, stack []string) {
	if props := o.obj("properties"); props != nil {
		out := newSchemaObj()
		for _, k := range props.keys {
			out.set(k, g.node(props.vals[k], pointerTo(path, "properties", k), depth+1, stack))
		}
		o.set("properties", out)
	} else if o.has("properties") {
		o.del("properties")
		g.change(pointerTo(path, "properties"), ChangeKeywordDropped, "properties", "properties is not an object of schemas; left out")
	}
	g.items(o, path, depth, stack)
	if list, ok := o.vals["anyOf"].([]any); ok {
		out := make([]any, len(list))
		for i, b := range list {
			out[i] = g.node(b, pointerTo(path, "anyOf", fmt.Sprint(i)), depth+1, stack)
		}
		o.set("anyOf", out)
	}
}

// items gives an ARRAY its one items schema: a tuple's item schemas become
// one (an anyOf of them when they differ), and a missing one the loosest.
func (g *geminiWalk) items(o *schemaObj, path string, depth int, stack []string) {
	tuple, isTuple := o.vals["prefixItems"].([]any)
	if list, ok := o.vals["items"].([]any); ok {
		tuple, isTuple = list, true
		o.del("items")
	}
	o.del("prefixItems")
	if isTuple {
		kw := "prefixItems"
		if !o.has("items") && len(tuple) > 0 {
			o.set("items", unionOf(tuple))
		}
		g.change(pointerTo(path, kw), ChangeKeywordRewritten, kw, "a tuple's item schemas written as one items schema, as Gemini's subset has no tuples (toolgate still checks each position)")
	}
	items, has := o.get("items")
	if !has && o.str("type") == "ARRAY" {
		g.change(path, ChangeKeywordRewritten, "items", "an array without items given items of any type, as Gemini requires them")
		o.set("items", geminiAny())
		return
	}
	if has {
		o.set("items", g.node(items, pointerTo(path, "items"), depth+1, stack))
	}
}

// unionOf returns the one schema of list when all are equal, else an anyOf.
func unionOf(list []any) any {
	same := true
	for _, s := range list[1:] {
		same = same && schemaTreeEqual(s, list[0])
	}
	if same {
		return list[0]
	}
	o := newSchemaObj()
	o.set("anyOf", append([]any(nil), list...))
	return o
}

// required keeps the required names that are properties: Gemini refuses a
// name it cannot find.
func (g *geminiWalk) required(o *schemaObj, path string) {
	list, ok := o.vals["required"].([]any)
	if !ok {
		if o.has("required") {
			o.del("required")
			g.change(pointerTo(path, "required"), ChangeKeywordDropped, "required", "required is not a list of names; left out")
		}
		return
	}
	props := o.obj("properties")
	kept := []any{}
	for _, e := range list {
		if name, ok := e.(string); ok && props != nil && props.has(name) {
			kept = append(kept, name)
			continue
		}
		g.change(pointerTo(path, "required"), ChangeKeywordDropped, "required", fmt.Sprintf("required names %s, which is not a property; left out, as Gemini refuses it (toolgate still checks it)", rawJSON(e)))
	}
	o.set("required", kept)
}
