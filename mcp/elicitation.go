package mcp

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// Form-mode elicitation (elicitation/create; URL mode is elicitation_url.go's): the request is checked before
// the hook runs, and the hook's ElicitResult after, with the requested
// schema's defaults applied to an accept (SEP-1034, as the official
// TypeScript client's applyElicitationDefaults does for the top-level
// properties a flat elicitation schema has).

// elicitationSchema checks elicitation/create's params and returns the
// requested schema: a form-mode request ("mode" absent or "form") with a
// requestedSchema object (URL mode goes to elicitation_url.go before
// this). A malformed request is -32602.
func elicitationSchema(params json.RawMessage) (json.RawMessage, *rpcFailure) {
	var p struct {
		Mode   *string         `json:"mode"`
		Schema json.RawMessage `json:"requestedSchema"`
	}
	if jsontext.Kind(params) != jsontext.Object || json.Unmarshal(params, &p) != nil {
		return nil, invalidParams("invalid elicitation request: params must be an object")
	}
	if p.Mode != nil && *p.Mode != "form" {
		return nil, invalidParams(`invalid elicitation request: mode must be "form" or "url"`)
	}
	if jsontext.Kind(p.Schema) != jsontext.Object {
		return nil, invalidParams("invalid elicitation request: requestedSchema must be an object")
	}
	return p.Schema, nil
}

// elicitationAnswer is the ElicitResult sent for what the elicitation hook
// returned: {action, content?, _meta?}, content only on accept. An accept's
// content (none counts as {}) gets the default of every property of schema
// it leaves out (a null value counts as left out), then is checked against
// schema: values are strings, numbers, booleans or arrays of strings, and
// the schema (when it compiles) validates them. Anything else is -32602.
func elicitationAnswer(raw json.RawMessage, schema json.RawMessage) (json.RawMessage, *rpcFailure) {
	var r struct {
		Action  string                     `json:"action"`
		Content map[string]json.RawMessage `json:"content"`
		Meta    json.RawMessage            `json:"_meta"`
	}
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &r) != nil {
		return nil, invalidParams("invalid elicitation result: the client's hook returned %s, not {action, content?} with content an object", jsontext.Kind(raw))
	}
	out := struct {
		Action  string                      `json:"action"`
		Content *map[string]json.RawMessage `json:"content,omitempty"`
		Meta    json.RawMessage             `json:"_meta,omitempty"`
	}{Action: r.Action}
	if jsontext.Kind(r.Meta) == jsontext.Object {
		out.Meta = r.Meta
	}
	switch r.Action {
	case "decline", "cancel":
	case "accept":
		content, f := acceptedContent(r.Content, schema)
		if f != nil {
			return nil, f
		}
		out.Content = &content
	default:
		return nil, invalidParams(`invalid elicitation result: action must be "accept", "decline" or "cancel"`)
	}
	b, _ := json.Marshal(out) // raw JSON the decoder read: always marshals
	return b, nil
}

// acceptedContent is an accept's content with schema's defaults applied,
// checked.
func acceptedContent(content map[string]json.RawMessage, schema json.RawMessage) (map[string]json.RawMessage, *rpcFailure) {
	out := make(map[string]json.RawMessage, len(content))
	for k, v := range content {
		if jsontext.Kind(v) != jsontext.Null {
			out[k] = v
		}
	}
	applyElicitationDefaults(schema, out)
	for k, v := range out {
		if !elicitationValue(v) {
			return nil, invalidParams("invalid elicitation result: content %q must be a string, number, boolean or array of strings", truncate(k, 60))
		}
	}
	if f := checkElicitation(schema, out); f != nil {
		return nil, f
	}
	return out, nil
}

// applyElicitationDefaults sets in content the "default" of each property
// of schema that content lacks.
func applyElicitationDefaults(schema json.RawMessage, content map[string]json.RawMessage) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return
	}
	for name, prop := range s.Properties {
		if _, ok := content[name]; ok {
			continue
		}
		var p struct {
			Default json.RawMessage `json:"default"`
		}
		if json.Unmarshal(prop, &p) == nil && len(p.Default) > 0 && jsontext.Kind(p.Default) != jsontext.Null {
			content[name] = p.Default
		}
	}
}

// elicitationValue reports whether v is a value MCP allows in an
// elicitation's content: a string, number, boolean or array of strings.
func elicitationValue(v json.RawMessage) bool {
	switch jsontext.Kind(v) {
	case jsontext.String, jsontext.Number, jsontext.Boolean:
		return true
	case jsontext.Array:
		var list []string
		return json.Unmarshal(v, &list) == nil
	}
	return false
}

// checkElicitation validates content against schema when schema compiles
// (a schema that does not is the server's problem: nothing is checked);
// the failure names the paths and keywords, not the values.
func checkElicitation(schema json.RawMessage, content map[string]json.RawMessage) *rpcFailure {
	cs, err := core.CompileSchema("elicitation", schema)
	if err != nil {
		return nil
	}
	b, _ := json.Marshal(content) // raw JSON values: always marshals
	var v any
	if decodeNumbers(b, &v) != nil {
		return nil
	}
	issues, err := cs.ValidateValue("elicitation", v)
	if err != nil || len(issues) == 0 {
		return nil
	}
	parts := make([]string, 0, 5)
	for i, is := range issues {
		if i == 5 {
			break
		}
		path := is.Path
		if path == "" {
			path = "(root)"
		}
		parts = append(parts, truncate(path, 60)+" ("+is.Keyword+")")
	}
	return invalidParams("invalid elicitation result: the content does not match the requested schema: %s", strings.Join(parts, ", "))
}
