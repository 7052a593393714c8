package provider

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// emptyParameters is the parameters schema of a tool that takes none.
var emptyParameters = json.RawMessage(`{"type":"object","properties":{}}`)

// topLevel makes a cleaned parameters schema an object schema the target
// accepts at its root: "type": "object" set when missing (a type list
// holding "object" becomes "object"); and, for every target but MCP (whose
// inputSchema is any JSON Schema of an object), the root keywords OpenAI
// and Anthropic refuse there: a $ref to a local definition is inlined, the
// variants of allOf/anyOf/oneOf are merged into the root's properties
// (allOf's required lists too), and enum, const and not are left out. Each
// is reported. A root that is no object schema at all (a type that cannot
// be an object, a value that is not a JSON object) is refused with
// invalid-schema. Every target but MCP gets "properties": {} when the root
// has none.
func (w *schemaWalk) topLevel(raw json.RawMessage, target string) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "true" || string(raw) == "{}" {
		return emptyParameters
	}
	members, ok := jsontext.SplitValid(raw)
	if !ok || len(raw) == 0 || raw[0] != '{' {
		w.fail("", "type", "the parameters schema must be a JSON object schema, got %s", jsontext.Described(jsontext.Kind(raw)))
		return raw
	}
	top := &rootObject{members: members}
	if target != MCP {
		w.inlineRootRef(top)
		w.flattenRoot(top)
	}
	w.rootType(top)
	if _, ok := top.get("properties"); !ok && target != MCP {
		top.set("properties", json.RawMessage("{}"))
	}
	return writeObject(top.members)
}

// rootObject is the root schema's members, in order.
type rootObject struct{ members []jsontext.Member }

func (o *rootObject) get(key string) (json.RawMessage, bool) {
	for _, m := range o.members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

func (o *rootObject) set(key string, v json.RawMessage) {
	for i := range o.members {
		if o.members[i].Key == key {
			o.members[i].Value = v
			return
		}
	}
	o.members = append(o.members, jsontext.Member{Key: key, Value: v})
}

func (o *rootObject) drop(key string) {
	o.members = slices.DeleteFunc(o.members, func(m jsontext.Member) bool { return m.Key == key })
}

// rootType sets "type": "object" first when it is missing and "object"
// when the root's type list holds it; any other type is refused.
func (w *schemaWalk) rootType(top *rootObject) {
	v, ok := top.get("type")
	if !ok {
		top.members = append([]jsontext.Member{{Key: "type", Value: json.RawMessage(`"object"`)}}, top.members...)
		w.change("", ChangeTypeSet, "type", `the parameters schema had no "type"; "type": "object" was set, as every provider wants`)
		return
	}
	var one string
	var list []string
	switch {
	case json.Unmarshal(v, &one) == nil && one == "object":
		return
	case json.Unmarshal(v, &list) == nil && slices.Contains(list, "object"):
		top.set("type", json.RawMessage(`"object"`))
		w.change("/type", ChangeTypeSet, "type", `the parameters schema's type list %s became "object", as every provider wants`, strings.Join(list, ", "))
		return
	}
	w.fail("/type", "type", `the parameters schema must be of type "object", got %s`, v)
}

// inlineRootRef replaces a root "$ref" to "#/$defs/…" or "#/definitions/…"
// with the keywords of the definition the root lacks.
func (w *schemaWalk) inlineRootRef(top *rootObject) {
	ref, ok := top.get("$ref")
	if !ok {
		return
	}
	var ptr string
	_ = json.Unmarshal(ref, &ptr)
	dm, ok := top.definition(ptr)
	if !ok {
		return
	}
	top.drop("$ref")
	for _, m := range dm {
		if _, has := top.get(m.Key); !has {
			top.set(m.Key, m.Value)
		}
	}
	w.change("/$ref", ChangeRefInlined, "$ref", "the root $ref %s was replaced by its definition, as a root $ref is refused", ptr)
}

// definition returns the members of the definition a local pointer
// "#/$defs/…" or "#/definitions/…" names in the root, false for any other
// reference.
func (o *rootObject) definition(ptr string) ([]jsontext.Member, bool) {
	if !strings.HasPrefix(ptr, "#/") {
		return nil, false
	}
	toks := jsontext.Tokens(ptr[1:])
	if len(toks) != 2 || (toks[0] != "$defs" && toks[0] != "definitions") {
		return nil, false
	}
	defs, _ := o.get(toks[0])
	def, ok := jsontext.Lookup(defs, toks[1])
	if !ok {
		return nil, false
	}
	return jsontext.SplitValid(bytes.TrimSpace(def))
}

// flattenRoot merges the root's allOf/anyOf/oneOf variants into its
// properties (and into required what the variants together require: for
// allOf each variant's names, for anyOf and oneOf the names every variant
// requires) and leaves out enum, const and not.
func (w *schemaWalk) flattenRoot(top *rootObject) {
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		v, ok := top.get(kw)
		if !ok {
			continue
		}
		var variants []json.RawMessage
		if json.Unmarshal(v, &variants) != nil {
			continue
		}
		top.drop(kw)
		var required []string // allOf: every variant's; anyOf, oneOf: those every variant requires
		for i, variant := range variants {
			names := mergeVariant(top, variant)
			switch {
			case kw == "allOf" || i == 0:
				required = append(required, names...)
			default:
				required = slices.DeleteFunc(required, func(n string) bool { return !slices.Contains(names, n) })
			}
		}
		addRequired(top, required)
		w.change("/"+kw, ChangeUnionFlattened, kw,
			"the root %s is refused by OpenAI and Anthropic; its variants' properties were merged into the root's (required: what every variant requires), so the model sees every field (toolgate still validates the arguments against the registered schema)", kw)
	}
	for _, kw := range []string{"enum", "const", "not"} {
		if _, ok := top.get(kw); ok {
			top.drop(kw)
			w.change("/"+kw, ChangeKeywordDropped, kw, "the root %s is refused by OpenAI; it was left out (toolgate still validates the arguments against the registered schema)", kw)
		}
	}
}

// mergeVariant adds the properties of one variant the root lacks (a
// variant that is a local $ref, its definition's) and returns the names
// the variant requires.
func mergeVariant(top *rootObject, variant json.RawMessage) []string {
	variant = bytes.TrimSpace(variant)
	if ref, ok := jsontext.Lookup(variant, "$ref"); ok {
		var ptr string
		_ = json.Unmarshal(ref, &ptr)
		if dm, ok := top.definition(ptr); ok {
			variant = writeObject(dm)
		}
	}
	if props, ok := jsontext.Lookup(variant, "properties"); ok {
		mine, _ := top.get("properties")
		top.set("properties", mergeObjects(mine, props))
	}
	var names []string
	if raw, ok := jsontext.Lookup(variant, "required"); ok {
		_ = json.Unmarshal(raw, &names)
	}
	return names
}

// addRequired adds names to the root's required list, each once.
func addRequired(top *rootObject, names []string) {
	if len(names) == 0 {
		return
	}
	var have []string
	if raw, ok := top.get("required"); ok {
		_ = json.Unmarshal(raw, &have)
	}
	for _, n := range names {
		if !slices.Contains(have, n) {
			have = append(have, n)
		}
	}
	data, _ := json.Marshal(have)
	top.set("required", data)
}

// mergeObjects returns a's members followed by those of b that a lacks.
func mergeObjects(a, b json.RawMessage) json.RawMessage {
	am, _ := jsontext.SplitValid(bytes.TrimSpace(a))
	bm, ok := jsontext.SplitValid(bytes.TrimSpace(b))
	if !ok {
		return a
	}
	seen := map[string]bool{}
	for _, m := range am {
		seen[m.Key] = true
	}
	for _, m := range bm {
		if !seen[m.Key] {
			am = append(am, m)
		}
	}
	return writeObject(am)
}
