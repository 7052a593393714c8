package provider

import "fmt"

// The unions of a schema in Gemini's subset: allOf merged, oneOf as anyOf,
// null branches and null types as nullable, and a type list as an anyOf of
// its types. Gemini (and @google/genai, which throws for it) refuses a type
// beside an anyOf, so an anyOf stands alone on its node, with annotations
// only: the keywords beside it move into each branch.

// geminiAnnotations may stand beside an anyOf.
var geminiAnnotations = map[string]bool{"description": true, "title": true, "default": true, "nullable": true, "example": true, "examples": true}

// Keywords by the type they apply to, for splitting a type list.
var (
	geminiStringKeys = []string{"minLength", "maxLength", "pattern", "format"}
	geminiNumberKeys = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"}
	geminiObjectKeys = []string{"properties", "required", "additionalProperties", "minProperties", "maxProperties", "patternProperties", "propertyNames"}
	geminiArrayKeys  = []string{"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"}
	geminiValueKeys  = []string{"enum", "const"}
)

// geminiMergeRounds bounds how often merging may expose another allOf.
const geminiMergeRounds = 8

// merge rewrites o's unions in place, before its keywords are checked.
func (g *geminiWalk) merge(o *schemaObj, path string, stack []string) {
	for round := 0; o.has("allOf") && round < geminiMergeRounds; round++ {
		g.allOf(o, path)
	}
	if o.has("allOf") {
		o.del("allOf")
		g.change(pointerTo(path, "allOf"), ChangeKeywordDropped, "allOf", "allOf nests too deeply to merge; left out (toolgate still checks it)")
	}
	if o.has("oneOf") {
		if o.has("anyOf") {
			o.del("oneOf")
			g.change(pointerTo(path, "oneOf"), ChangeKeywordDropped, "oneOf", "oneOf beside anyOf cannot be expressed; left out (toolgate still checks it)")
		} else {
			o.rename("oneOf", "anyOf")
			g.change(pointerTo(path, "oneOf"), ChangeUnionFlattened, "oneOf", "oneOf written as anyOf; toolgate still checks that exactly one branch matches")
		}
	}
	g.nullBranches(o, path)
	g.typeList(o, path)
	if o.has("anyOf") {
		g.spreadSiblings(o, path)
	}
}

// allOf merges each branch of o's allOf into o: properties and required
// are joined, other keywords added; a keyword two branches give different
// values is left out.
func (g *geminiWalk) allOf(o *schemaObj, path string) {
	at := pointerTo(path, "allOf")
	list, ok := o.vals["allOf"].([]any)
	o.del("allOf")
	if !ok {
		g.change(at, ChangeKeywordDropped, "allOf", "allOf is not a list; left out")
		return
	}
	for i, b := range list {
		g.mergeSchema(o, b, pointerTo(at, fmt.Sprint(i)))
	}
	g.change(at, ChangeUnionFlattened, "allOf", "allOf merged into one schema")
}

// mergeSchema lays schema b (a $ref resolved) over o without overriding.
func (g *geminiWalk) mergeSchema(o *schemaObj, b any, at string) {
	for i := 0; i < geminiMergeRounds; i++ {
		bo, ok := b.(*schemaObj)
		if !ok || !bo.has("$ref") {
			break
		}
		ref, _ := bo.vals["$ref"].(string)
		target, _, found := g.resolve(ref)
		if !found {
			break
		}
		g.change(pointerTo(at, "$ref"), ChangeRefInlined, "$ref", fmt.Sprintf("$ref %q replaced by the schema it points to", ref))
		merged := newSchemaObj()
		if t, ok := target.(*schemaObj); ok {
			merged = t.clone()
		}
		for _, k := range bo.keys {
			if k != "$ref" {
				merged.set(k, bo.vals[k])
			}
		}
		b = merged
	}
	bo, ok := b.(*schemaObj)
	if !ok {
		if b != true {
			g.change(at, ChangeKeywordDropped, "allOf", "a branch that is not a schema object; left out")
		}
		return
	}
	for _, k := range bo.keys {
		g.mergeKey(o, k, bo.vals[k], at)
	}
}

func (g *geminiWalk) mergeKey(o *schemaObj, k string, v any, at string) {
	cur, has := o.get(k)
	switch {
	case !has:
		o.set(k, v)
	case k == "properties":
		cp, _ := cur.(*schemaObj)
		vp, _ := v.(*schemaObj)
		if cp == nil || vp == nil {
			return
		}
		joined := cp.clone()
		for _, name := range vp.keys {
			if !joined.has(name) {
				joined.set(name, vp.vals[name])
			}
		}
		o.set(k, joined)
	case k == "required":
		cl, _ := cur.([]any)
		vl, _ := v.([]any)
		o.set(k, joinNames(cl, vl))
	case k == "allOf":
		cl, _ := cur.([]any)
		vl, _ := v.([]any)
		o.set(k, append(append([]any(nil), cl...), vl...))
	case !schemaTreeEqual(cur, v):
		g.change(pointerTo(at, k), ChangeKeywordDropped, k, fmt.Sprintf("%q differs between the merged schemas; the first is kept (toolgate still checks both)", k))
	}
}

// joinNames returns a's names followed by those of b it lacks.
func joinNames(a, b []any) []any {
	out := append([]any(nil), a...)
	for _, n := range b {
		found := false
		for _, m := range out {
			found = found || m == n
		}
		if !found {
			out = append(out, n)
		}
	}
	return out
}

// nullBranches turns the null branches of o's anyOf into nullable, and a
// single remaining branch into o itself.
func (g *geminiWalk) nullBranches(o *schemaObj, path string) {
	list, ok := o.vals["anyOf"].([]any)
	if !ok {
		return
	}
	kept := []any{}
	for _, b := range list {
		if isNullSchema(b) {
			o.set("nullable", true)
			continue
		}
		kept = append(kept, b)
	}
	at := pointerTo(path, "anyOf")
	if len(kept) < len(list) {
		g.change(at, ChangeUnionFlattened, "anyOf", "the null branch of anyOf written as nullable")
	}
	switch len(kept) {
	case 0:
		o.del("anyOf")
		o.set("type", "null")
	case 1:
		o.del("anyOf")
		g.mergeSchema(o, kept[0], pointerTo(at, "0"))
		if len(kept) == len(list) {
			g.change(at, ChangeUnionFlattened, "anyOf", "an anyOf of one branch written as that branch")
		}
	default:
		o.set("anyOf", kept)
	}
}

// isNullSchema reports whether b accepts only null.
func isNullSchema(b any) bool {
	o, ok := b.(*schemaObj)
	if !ok {
		return false
	}
	if names, ok := typeNames(o); ok && len(names) == 1 && names[0] == "null" {
		return true
	}
	if c, ok := o.get("const"); ok && c == nil {
		return true
	}
	e, ok := o.vals["enum"].([]any)
	return ok && len(e) == 1 && e[0] == nil
}

// typeList writes a type list as nullable plus one type, or, for several
// types, as an anyOf with one branch per type carrying that type's
// keywords.
func (g *geminiWalk) typeList(o *schemaObj, path string) {
	t, ok := o.vals["type"].([]any)
	if !ok {
		return
	}
	at := pointerTo(path, "type")
	var names []string
	for _, e := range t {
		if s, ok := e.(string); ok && s == "null" {
			o.set("nullable", true)
		} else if ok && jsonTypes[s] {
			names = append(names, s)
		}
	}
	switch {
	case len(names) == 0:
		o.set("type", "null")
	case len(names) == 1:
		o.set("type", names[0])
		o.typeWritten = true
	case o.has("anyOf"):
		o.del("type")
		g.change(at, ChangeKeywordDropped, "type", "a type list beside anyOf cannot be expressed; left out (toolgate still checks it)")
		return
	default:
		o.del("type")
		o.set("anyOf", splitTypes(o, names))
	}
	g.change(at, ChangeUnionFlattened, "type", "a list of types written as nullable and one type, or an anyOf of the types")
}

// splitTypes returns one branch per type name with the keywords of o that
// apply to it, removing those keywords from o.
func splitTypes(o *schemaObj, names []string) []any {
	branches := make([]any, len(names))
	for i, n := range names {
		b := newSchemaObj()
		b.set("type", n)
		b.typeWritten = true
		var keys []string
		switch n {
		case "string":
			keys = geminiStringKeys
		case "number", "integer":
			keys = geminiNumberKeys
		case "object":
			keys = geminiObjectKeys
		case "array":
			keys = geminiArrayKeys
		}
		for _, k := range append(append([]string(nil), keys...), geminiValueKeys...) {
			if v, ok := o.get(k); ok {
				b.set(k, v)
			}
		}
		branches[i] = b
	}
	for _, k := range append(append(append(append(append([]string(nil), geminiStringKeys...), geminiNumberKeys...), geminiObjectKeys...), geminiArrayKeys...), geminiValueKeys...) {
		o.del(k)
	}
	return branches
}

// spreadSiblings moves every keyword beside o's anyOf, annotations apart,
// into each branch.
func (g *geminiWalk) spreadSiblings(o *schemaObj, path string) {
	sib := newSchemaObj()
	for _, k := range append([]string(nil), o.keys...) {
		if k != "anyOf" && !geminiAnnotations[k] {
			sib.set(k, o.vals[k])
			o.del(k)
		}
	}
	if len(sib.keys) == 0 {
		return
	}
	list, _ := o.vals["anyOf"].([]any)
	out := make([]any, len(list))
	for i, b := range list {
		w := newSchemaObj()
		g.mergeSchema(w, b, pointerTo(path, "anyOf", fmt.Sprint(i)))
		g.mergeSchema(w, sib, path)
		out[i] = w
	}
	o.set("anyOf", out)
	g.change(pointerTo(path, "anyOf"), ChangeUnionFlattened, "anyOf", fmt.Sprintf("the keywords beside anyOf (%s) moved into each branch, as Gemini allows anyOf only alone on its node", joinKeys(sib.keys)))
}

func joinKeys(keys []string) string {
	out := ""
	for i, k := range keys {
		if i > 0 {
			out += ", "
		}
		out += k
	}
	return out
}
