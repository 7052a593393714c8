package provider

import (
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
)

// geminiLegacySchema rewrites a tool's parameters schema into Gemini's
// legacy FunctionDeclaration.parameters, a subset of the OpenAPI 3.0 Schema
// object (the Schema type of @google/genai). Types are written upper-case
// ("OBJECT", "STRING", …), the values of @google/genai's Type enum and what
// that SDK itself sends. Every $ref is inlined (its definitions are left
// out), a type list becomes one type with nullable (or an anyOf of the
// types), a null branch of an anyOf becomes nullable, oneOf becomes anyOf,
// allOf is merged, const becomes a one-value enum, enum values become
// strings (with format "enum" when the type is not STRING), a missing type
// is inferred, and every keyword the subset lacks is dropped or, when a
// model should still read it, written into the description
// (docs/provider-transforms.md lists each keyword). It reports every change
// with a path into params; a change made inside a definition is reported
// once, at the definition's path.
//
// A $ref cycle, a $ref that does not resolve, and a schema whose inlining
// grows past geminiMaxNodes cannot be written in the subset: that node is
// replaced by the loosest schema of its type (an OBJECT with no properties
// for an object) and a ChangeSchemaRefused reports it. err is only for
// params that are not a JSON object.
func geminiLegacySchema(tool string, params json.RawMessage) (out json.RawMessage, changes []Change, err error) {
	doc, err := parseSchemaTree(params)
	if err != nil {
		return nil, nil, fmt.Errorf("parameters schema of %q: %w", tool, err)
	}
	root, ok := doc.(*schemaObj)
	if !ok {
		return nil, nil, fmt.Errorf("parameters schema of %q is not a JSON object", tool)
	}
	g := &geminiWalk{tool: tool, root: root, seen: map[string]bool{}}
	start := root
	if !root.has("type") && !root.has("anyOf") && !root.has("oneOf") && !root.has("allOf") && !root.has("$ref") {
		// parameters without a type: the arguments are an object.
		start = root.clone()
		start.set("type", "object")
		g.change("/type", ChangeKeywordRewritten, "type", "the parameters schema has no type; written as an OBJECT, as the arguments are one")
	}
	res := g.node(start, "", 0, nil)
	if o, ok := res.(*schemaObj); !ok || o.str("type") != "OBJECT" {
		// FunctionDeclaration.parameters must be an OBJECT schema.
		g.change("", ChangeSchemaRefused, "type", "the parameters schema must be an object; written as an OBJECT with no properties")
		desc := ""
		if ok {
			desc = o.str("description")
		}
		res = geminiObject(desc)
	}
	return appendSchemaTree(nil, res), g.changes, nil
}

// geminiMaxNodes bounds the schema objects inlining may write: definitions
// referred to from many places multiply.
const geminiMaxNodes = 10 * core.MaxSchemaObjects

// geminiWalk is one run of the Gemini transform.
type geminiWalk struct {
	tool    string
	root    *schemaObj
	changes []Change
	seen    map[string]bool // changes already reported (a definition inlined twice reports once)
	nodes   int
}

func (g *geminiWalk) change(path string, kind ChangeKind, keyword, msg string) {
	key := path + "\x00" + string(kind) + "\x00" + keyword + "\x00" + msg
	if g.seen[key] {
		return
	}
	g.seen[key] = true
	g.changes = append(g.changes, Change{Tool: g.tool, Path: path, Kind: kind, Keyword: keyword, Message: msg})
}

// geminiObject is an OBJECT schema with no properties, the loosest object.
func geminiObject(description string) *schemaObj {
	o := newSchemaObj()
	o.set("type", "OBJECT")
	if description != "" {
		o.set("description", description)
	}
	return o
}
