package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// keywords2020 is the conformance runner's json_schema_2020_12_tool
// (json-schema-2020-12-preservation: $schema, $defs with an $anchor, $ref,
// allOf/anyOf, if/then/else, additionalProperties) with the rest of the
// 2020-12 vocabulary a server may send added: prefixItems, items,
// unevaluatedProperties and unevaluatedItems, dependentRequired and
// dependentSchemas, const, contains with minContains and maxContains,
// propertyNames, $dynamicAnchor and $dynamicRef, $comment, examples,
// deprecated, readOnly, writeOnly, contentMediaType, contentEncoding,
// format, patternProperties, not, oneOf, minProperties, uniqueItems.
const keywords2020 = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$comment": "a contact card",
  "type": "object",
  "$defs": {
    "address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}},
    "node": {"$dynamicAnchor": "node", "type": "object", "properties": {"label": {"type": "string"}}}
  },
  "properties": {
    "name": {"type": "string", "examples": ["Ada"], "deprecated": false, "$comment": "display name"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string", "format": "phone", "pattern": "^[0-9+ ]+$"},
    "email": {"type": "string", "format": "email", "readOnly": true},
    "version": {"const": 2},
    "photo": {"type": "string", "contentMediaType": "image/png", "contentEncoding": "base64", "writeOnly": true},
    "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false, "unevaluatedItems": false},
    "tags": {"type": "array", "items": {"type": "string"}, "contains": {"const": "primary"}, "minContains": 1, "maxContains": 2, "uniqueItems": true},
    "labels": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "string"}, "minProperties": 1},
    "extras": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "unevaluatedProperties": false},
    "tree": {"$dynamicRef": "#node"},
    "nickname": {"oneOf": [{"type": "string", "maxLength": 20}, {"type": "null"}], "not": {"const": "admin"}}
  },
  "dependentRequired": {"phone": ["contactMethod"]},
  "dependentSchemas": {"email": {"properties": {"contactMethod": {"const": "email"}}}},
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
}`

// keywordsStrict is a 2020-12 schema OpenAI's strict mode can express
// (so the strict exports transform it rather than refuse it): $defs and
// $ref, const, enum, anyOf, format, pattern, examples, $comment,
// deprecated, readOnly, description, default, minItems, and an optional
// property (made required and nullable).
const keywordsStrict = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}, "required": ["street", "city"], "additionalProperties": false}},
  "properties": {
    "name": {"type": "string", "description": "who", "examples": ["Ada"], "deprecated": true, "$comment": "display name", "pattern": "^[A-Z]"},
    "email": {"type": "string", "format": "email", "readOnly": true},
    "address": {"$ref": "#/$defs/address"},
    "version": {"const": 2},
    "kind": {"enum": ["home", "work"], "default": "home"},
    "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    "nickname": {"anyOf": [{"type": "string"}, {"type": "null"}]}
  },
  "required": ["name", "email", "address", "version", "tags", "nickname"],
  "additionalProperties": false
}`

// keywordAt is one keyword of a schema: the JSON Pointer of the node that
// holds it, its name and its compact value.
type keywordAt struct {
	node, keyword string
	value         json.RawMessage
}

func (k keywordAt) path() string { return jsontext.Join(k.node, k.keyword) }

// schemaKeywords lists every keyword of the schema raw, subschemas
// included (the walk follows the same subschema keywords the export does).
func schemaKeywords(t *testing.T, raw json.RawMessage, node string, out *[]keywordAt) {
	t.Helper()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return
	}
	members, ok := jsontext.SplitValid(raw)
	require.True(t, ok, "schema at %q is not valid JSON", node)
	for _, m := range members {
		v := compactJSON(t, m.Value)
		*out = append(*out, keywordAt{node: node, keyword: m.Key, value: v})
		p := jsontext.Join(node, m.Key)
		switch {
		case subschemaMapKeywords[m.Key]:
			subs, _ := jsontext.SplitValid(v)
			for _, s := range subs {
				schemaKeywords(t, s.Value, jsontext.Join(p, s.Key), out)
			}
		case subschemaKeywords[m.Key] || subschemaListKeywords[m.Key]:
			if v[0] == '[' {
				var items []json.RawMessage
				require.NoError(t, json.Unmarshal(v, &items))
				for i, it := range items {
					schemaKeywords(t, it, jsontext.Join(p, fmt.Sprint(i)), out)
				}
			} else {
				schemaKeywords(t, v, p, out)
			}
		}
	}
}

func compactJSON(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, raw))
	return b.Bytes()
}

// valueAt is the value at the JSON Pointer path of the JSON doc (nil when
// there is none).
func valueAt(doc json.RawMessage, path string) json.RawMessage {
	cur := bytes.TrimSpace(doc)
	if path == "" {
		return cur
	}
	for _, tok := range strings.Split(path[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case len(cur) > 0 && cur[0] == '{':
			members, _ := jsontext.SplitValid(cur)
			var next json.RawMessage
			for _, m := range members {
				if m.Key == tok {
					next = bytes.TrimSpace(m.Value)
				}
			}
			if next == nil {
				return nil
			}
			cur = next
		case len(cur) > 0 && cur[0] == '[':
			var items []json.RawMessage
			if json.Unmarshal(cur, &items) != nil {
				return nil
			}
			i := -1
			fmt.Sscan(tok, &i)
			if i < 0 || i >= len(items) {
				return nil
			}
			cur = bytes.TrimSpace(items[i])
		default:
			return nil
		}
	}
	return cur
}

// exportedParameters is the parameters schema of the one tool of an export.
func exportedParameters(t *testing.T, target string, tools json.RawMessage) json.RawMessage {
	t.Helper()
	var list []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(tools, &list))
	require.Len(t, list, 1)
	item := list[0]
	switch target {
	case core.ProviderOpenAIChat:
		var fn map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(item["function"], &fn))
		return fn["parameters"]
	case core.ProviderOpenAIResponses:
		return item["parameters"]
	case core.ProviderAnthropic:
		return item["input_schema"]
	case core.ProviderGemini:
		var fds []map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(item["functionDeclarations"], &fds))
		require.Len(t, fds, 1)
		if p, ok := fds[0]["parametersJsonSchema"]; ok {
			return p
		}
		return fds[0]["parameters"]
	}
	return item["inputSchema"]
}

// accounted says how the export dealt with keyword k: "kept" (there,
// byte-identical, or for a subschema keyword there with its own keywords
// checked one by one), "reported" (a change names it at its path or its
// node, or a change names a keyword above it whose value it is part of),
// or "" (lost silently).
func accounted(k keywordAt, out json.RawMessage, changes []Change, reported map[string]bool) string {
	got := valueAt(out, k.path())
	structural := subschemaKeywords[k.keyword] || subschemaMapKeywords[k.keyword] || subschemaListKeywords[k.keyword]
	for _, c := range changes {
		if c.Keyword == k.keyword && (c.Path == k.path() || c.Path == k.node) {
			return "reported"
		}
		// a change of the whole node or of the schema (refused, inlined) covers what is under it
		if c.Keyword == "" && c.Path != "" && (c.Path == k.node || strings.HasPrefix(k.path(), c.Path+"/")) {
			return "reported"
		}
		if c.Kind == ChangeSchemaRefused && c.Path == "" {
			return "reported"
		}
		// strict mode's optional property made required and nullable: its schema is wrapped, the
		// parent's required list names it
		if c.Kind == ChangeStrictRequired && (k.node == c.Path || k.keyword == "required" && strings.HasPrefix(c.Path, k.node+"/properties/")) {
			return "reported"
		}
	}
	for p := range reported { // a keyword above it was reported: its value went with it
		if strings.HasPrefix(k.path(), p+"/") {
			return "reported"
		}
	}
	switch {
	case got == nil:
		return ""
	case structural:
		return "kept"
	case bytes.Equal(compactJSONOrNil(got), k.value):
		return "kept"
	}
	return ""
}

func compactJSONOrNil(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return nil
	}
	return b.Bytes()
}

// Every 2020-12 keyword of a server's schema is kept as sent in toolSchema
// and, in every provider export, either kept byte-identical at its path or
// named in the report (its path and keyword): nothing is lost silently.
func TestExportKeeps2020KeywordsOrReportsThem(t *testing.T) {
	for name, schema := range map[string]string{"every keyword": keywords2020, "strict-expressible": keywordsStrict} {
		t.Run(name, func(t *testing.T) { exportKeepsOrReports(t, schema) })
	}
}

func exportKeepsOrReports(t *testing.T, text string) {
	schema := compactJSON(t, json.RawMessage(text))
	discovered := `{"type":"function","function":{"name":"contact","description":"Tool with JSON Schema 2020-12 features","parameters":` + string(schema) + `}}`
	compiled, err := core.CompileSchema("contact", schema)
	require.NoError(t, err)
	tool, err := core.NewTool(core.HandlerFunc("contact", func(_ context.Context, a *core.Arguments) (any, error) { return a, nil }),
		&core.ToolOptions{Schema: json.RawMessage(discovered), InputSchema: compiled})
	require.NoError(t, err)
	held := valueAt(tool.Schema, "/function/parameters")
	require.Equal(t, string(schema), string(compactJSON(t, held)), "toolSchema does not hold the server's schema as sent")

	var keywords []keywordAt
	schemaKeywords(t, schema, "", &keywords)
	targets := []struct {
		name, target string
		opts         ExportOptions
	}{
		{"openai-chat", core.ProviderOpenAIChat, ExportOptions{}},
		{"openai-chat strict", core.ProviderOpenAIChat, ExportOptions{Strict: true}},
		{"openai-responses", core.ProviderOpenAIResponses, ExportOptions{}},
		{"openai-responses strict", core.ProviderOpenAIResponses, ExportOptions{Strict: true}},
		{"anthropic", core.ProviderAnthropic, ExportOptions{}},
		{"gemini", core.ProviderGemini, ExportOptions{}},
		{"gemini legacy", core.ProviderGemini, ExportOptions{GeminiLegacy: true}},
		{"mcp", MCP, ExportOptions{}},
	}
	for _, tc := range targets {
		t.Run(tc.name, func(t *testing.T) {
			ex, err := ExportTools([]*core.Tool{tool}, tc.target, &tc.opts)
			require.NoError(t, err)
			out := exportedParameters(t, tc.target, ex.Tools)
			require.NotNil(t, out)
			reported := map[string]bool{}
			var lost []string
			// parents first: a reported keyword accounts for the keywords of its value
			sort.SliceStable(keywords, func(i, j int) bool { return len(keywords[i].path()) < len(keywords[j].path()) })
			for _, k := range keywords {
				switch accounted(k, out, ex.Report.Changes, reported) {
				case "reported":
					reported[k.path()] = true
				case "":
					lost = append(lost, k.path())
				}
			}
			if len(lost) > 0 {
				sort.Strings(lost)
				changes, _ := json.MarshalIndent(ex.Report.Changes, "", " ")
				t.Errorf("%d keywords lost silently (neither kept at their path nor reported):\n  %s\nexported: %s\nreport: %s",
					len(lost), strings.Join(lost, "\n  "), out, changes)
			}
		})
	}
}
