package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// The keywords whose value is one subschema, a map of names to subschemas,
// or a list of subschemas: where the export's walk goes. A keyword's value
// elsewhere (default, enum, const, examples) is data and stays as it is.
var (
	subschemaKeywords = map[string]bool{
		"items": true, "additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true,
		"additionalItems": true, "contains": true, "propertyNames": true, "not": true, "if": true, "then": true,
		"else": true, "contentSchema": true,
	}
	subschemaMapKeywords = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true,
	}
	subschemaListKeywords = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "prefixItems": true}
	// dataKeywords hold instance values, kept exactly (a null there means null).
	dataKeywords = map[string]bool{"default": true, "const": true, "enum": true, "examples": true, "example": true}
)

// maxExportDepth bounds the nesting the export's walk follows; deeper
// schemas are refused (the compiler refuses them at construction anyway).
const maxExportDepth = 256

// schemaWalk cleans one tool's parameters schema and collects its changes.
type schemaWalk struct {
	tool    string
	changes []Change
	err     error
	// propertyNames is the target's rule for property names, nil when it
	// has none; with rootPropertiesOnly it holds for the root's only
	// (propertyNameChanges checks them on the exported schema).
	propertyNames      *regexp.Regexp
	rootPropertiesOnly bool
	// provider is true for every target but MCP: the walk then leaves out
	// what schema generators add that tells a provider nothing
	// (generatedKeys).
	provider bool
}

func (w *schemaWalk) change(path string, kind ChangeKind, keyword, format string, args ...any) {
	w.changes = append(w.changes, Change{Tool: w.tool, Path: path, Kind: kind, Keyword: keyword, Message: fmt.Sprintf(format, args...)})
}

func (w *schemaWalk) fail(path, keyword, format string, args ...any) {
	if w.err == nil {
		e := core.Errorf(core.CodeInvalidSchema, w.tool, format, args...)
		e.Issues = []core.Issue{{Path: path, Keyword: keyword, Message: e.Message}}
		w.err = e
	}
}

// node returns a schema node without its null-valued keys, its subschemas
// cleaned the same way, and no null-valued key inside the value of an
// annotation or extension keyword either; the values of the data keywords
// (default, const, enum, examples, example) are kept exactly. In a provider
// export it also leaves out what generatedKeys names. A boolean schema, or
// anything that is not an object, is kept as it is.
func (w *schemaWalk) node(raw json.RawMessage, path string, depth int) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return raw
	}
	return w.withoutNulls(raw, path, depth, ", which no provider accepts", w.generatedKeys, func(key string, v json.RawMessage, p string) json.RawMessage {
		switch {
		case subschemaKeywords[key]:
			return w.nodes(v, p, depth) // "items" may be a list (draft 7's tuple form)
		case subschemaMapKeywords[key]:
			return w.mapOf(v, p, depth)
		case subschemaListKeywords[key]:
			return w.nodes(v, p, depth)
		case !dataKeywords[key]:
			return w.other(v, p, depth) // an annotation or extension keyword: no null-valued key inside either
		}
		return v
	})
}

// withoutNulls rewrites the JSON object raw at path: each null-valued member
// is left out, with a change saying so (why, when not empty, follows "was
// null"), so is each member whose key skip (when not nil) returns (skip
// reports those itself), and each other member's value becomes what keep
// returns for it. raw is returned as it is when it cannot be split into
// members.
func (w *schemaWalk) withoutNulls(raw json.RawMessage, path string, depth int, why string, skip func([]jsontext.Member, string) map[string]bool, keep func(key string, v json.RawMessage, p string) json.RawMessage) json.RawMessage {
	members, ok := w.split(raw, path, depth)
	if !ok {
		return raw
	}
	var left map[string]bool
	if skip != nil {
		left = skip(members, path)
	}
	out := make([]jsontext.Member, 0, len(members))
	for _, m := range members {
		if left[m.Key] {
			continue
		}
		v := bytes.TrimSpace(m.Value)
		p := jsontext.Join(path, m.Key)
		if string(v) == "null" {
			w.change(p, ChangeNullRemoved, m.Key, "%q was null%s; it was left out", m.Key, why)
			continue
		}
		out = append(out, jsontext.Member{Key: m.Key, Value: keep(m.Key, v, p)})
	}
	return writeObject(out)
}

// other removes the null-valued keys of any JSON value, at every depth.
func (w *schemaWalk) other(raw json.RawMessage, path string, depth int) json.RawMessage {
	if len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') {
		return raw
	}
	if depth > maxExportDepth {
		w.fail(path, "depth", "the parameters schema nests deeper than %d levels", maxExportDepth)
		return raw
	}
	if raw[0] == '[' {
		return w.eachItem(raw, path, func(it json.RawMessage, p string) json.RawMessage {
			return w.other(bytes.TrimSpace(it), p, depth+1)
		})
	}
	return w.withoutNulls(raw, path, depth, "", nil, func(_ string, v json.RawMessage, p string) json.RawMessage {
		return w.other(v, p, depth+1)
	})
}

// split reads the members of an object node; false (the failure recorded)
// past maxExportDepth or for invalid JSON.
func (w *schemaWalk) split(raw json.RawMessage, path string, depth int) ([]jsontext.Member, bool) {
	if depth > maxExportDepth {
		w.fail(path, "depth", "the parameters schema nests deeper than %d levels", maxExportDepth)
		return nil, false
	}
	members, ok := jsontext.SplitValid(raw)
	if !ok {
		w.fail(path, "json", "the parameters schema is not valid JSON")
	}
	return members, ok
}

// nodes cleans one subschema or a list of them.
func (w *schemaWalk) nodes(raw json.RawMessage, path string, depth int) json.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return w.node(raw, path, depth+1)
	}
	return w.eachItem(raw, path, func(it json.RawMessage, p string) json.RawMessage {
		return w.node(it, p, depth+1)
	})
}

// eachItem rewrites the JSON array raw at path: each item becomes what
// rewrite returns for it and its path. Invalid JSON is recorded as the
// walk's failure and raw returned as it is.
func (w *schemaWalk) eachItem(raw json.RawMessage, path string, rewrite func(item json.RawMessage, p string) json.RawMessage) json.RawMessage {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		w.fail(path, "json", "the parameters schema is not valid JSON")
		return raw
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(rewrite(it, jsontext.Join(path, fmt.Sprint(i))))
	}
	b.WriteByte(']')
	return b.Bytes()
}

// mapOf cleans each subschema of a name → subschema map; a null entry is
// left out, and a boolean one written as its object form.
func (w *schemaWalk) mapOf(raw json.RawMessage, path string, depth int) json.RawMessage {
	if len(raw) == 0 || raw[0] != '{' {
		return raw
	}
	members, ok := jsontext.SplitValid(raw)
	if !ok {
		w.fail(path, "json", "the parameters schema is not valid JSON")
		return raw
	}
	out := make([]jsontext.Member, 0, len(members))
	for _, m := range members {
		p := jsontext.Join(path, m.Key)
		if string(bytes.TrimSpace(m.Value)) == "null" {
			w.change(p, ChangeNullRemoved, "", "the schema of %q was null; it was left out", m.Key)
			continue
		}
		v := bytes.TrimSpace(m.Value)
		switch string(v) {
		case "true":
			v = json.RawMessage("{}")
			w.change(p, ChangeBooleanSchema, "", "the schema of %q was true; it is written as {}, which means the same", m.Key)
		case "false":
			v = json.RawMessage(`{"not":{}}`)
			w.change(p, ChangeBooleanSchema, "", `the schema of %q was false; it is written as {"not": {}}, which means the same`, m.Key)
		}
		out = append(out, jsontext.Member{Key: m.Key, Value: w.node(v, p, depth+1)})
	}
	return writeObject(out)
}

// propertyNameChanges reports each property name of the exported schema
// (every properties map, or with rootPropertiesOnly the root's) that
// breaks the target's property name rule, with its path in the exported
// schema: nothing is renamed.
func (w *schemaWalk) propertyNameChanges(raw json.RawMessage, path string, depth int) {
	if w.propertyNames == nil || depth > maxExportDepth {
		return
	}
	members, ok := jsontext.SplitValid(bytes.TrimSpace(raw))
	if !ok {
		return
	}
	for _, m := range members {
		p := jsontext.Join(path, m.Key)
		switch {
		case subschemaMapKeywords[m.Key]:
			subs, _ := jsontext.SplitValid(bytes.TrimSpace(m.Value))
			for _, sub := range subs {
				sp := jsontext.Join(p, sub.Key)
				if m.Key == "properties" && !w.propertyNames.MatchString(sub.Key) {
					w.change(sp, ChangePropertyNameRefused, "properties", "the property name %q breaks the target's rule %s; toolgate does not rename properties, so the provider may refuse the tool", sub.Key, w.propertyNames)
				}
				if !w.rootPropertiesOnly {
					w.propertyNameChanges(sub.Value, sp, depth+1)
				}
			}
		case w.rootPropertiesOnly:
		case subschemaKeywords[m.Key] || subschemaListKeywords[m.Key]:
			v := bytes.TrimSpace(m.Value)
			if len(v) > 0 && v[0] == '[' {
				var items []json.RawMessage
				_ = json.Unmarshal(v, &items)
				for i, it := range items {
					w.propertyNameChanges(it, jsontext.Join(p, fmt.Sprint(i)), depth+1)
				}
			} else {
				w.propertyNameChanges(v, p, depth+1)
			}
		}
	}
}

// writeObject writes members as a JSON object, in order.
func writeObject(members []jsontext.Member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsontext.AppendString(nil, m.Key))
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}
