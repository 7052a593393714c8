package mcp

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"

	"github.com/toolgate/toolgate/core"
)

// ResultMode says what a call of an MCP tool responds with.
type ResultMode string

const (
	// ResultLionAGI is LionAGI's unwrapping, the default: a single text
	// item gives its text (a string), any other content the content list
	// (a json.RawMessage, the server's key order kept); structuredContent
	// and _meta are not part of the response.
	ResultLionAGI ResultMode = "lionagi"
	// ResultFull responds with the whole CallToolResult as the server sent
	// it, an object {content, structuredContent?, _meta?, …} as a
	// json.RawMessage in the server's key order: every content item kept
	// with its annotations and _meta, content [] when absent.
	ResultFull ResultMode = "full"
)

// ResultModes lists the result modes, the default first; the JS package's
// McpResultMode type is generated from it (cmd/gen-contract).
var ResultModes = []ResultMode{ResultLionAGI, ResultFull}

// ParseResultMode reads a result option ("" is ResultLionAGI) and refuses
// any other value with unsupported-type naming call.
func ParseResultMode(call, v string) (ResultMode, error) {
	if v == "" {
		return ResultLionAGI, nil
	}
	if slices.Contains(ResultModes, ResultMode(v)) {
		return ResultMode(v), nil
	}
	return "", core.Errorf(core.CodeUnsupportedType, "", "%s: option result must be %s, got %s",
		call, ResultModeChoice(), strconv.QuoteToASCII(truncate(v, 40)))
}

// ResultModeChoice is the result modes as a message lists them:
// "lionagi" or "full".
func ResultModeChoice() string { return jsontext.Choice(ResultModes) }

// readResult turns a tools/call result into the call's response under
// mode: a string (one text item, LionAGI mode), or the content list
// (LionAGI mode) or the whole result (ResultFull) as a json.RawMessage
// holding the server's JSON with its key order (rewriteJSON). It fails with: transport when the result is not an object or its
// content not an array; tool-error when isError is true (Result holds the
// whole result, its strings redacted; the message quotes the text
// content; the Cause is a *ToolError); invalid-result when
// structuredContent breaks output (the tool's outputSchema, nil when it
// has none; not checked on isError), Issues pointing into
// structuredContent. Every error names the tool.
func readResult(cfg *ServerConfig, tool, wire string, raw json.RawMessage, mode ResultMode, output *core.CompiledSchema) (any, error) {
	raw = stripEnvelope(bytes.TrimSpace(raw)) // the same result from a server of either era
	fields, ok := jsontext.Members(raw)
	if !ok {
		return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: not a JSON object"), tool)
	}
	isErr := string(bytes.TrimSpace(fields["isError"])) == "true"
	if mode != ResultFull && !isErr {
		if text, ok := singleText(fields["content"]); ok {
			// LionAGI's unwrapping of the usual answer, one text item, read
			// from the bytes without decoding the content list.
			if err := checkOutput(cfg, tool, wire, fields, output); err != nil {
				return nil, err
			}
			return text, nil
		}
	}
	contentRaw := json.RawMessage("[]")
	if v, ok := fields["content"]; ok && jsontext.Kind(v) != "null" {
		if jsontext.Kind(v) != "array" {
			return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: \"content\" is not an array"), tool)
		}
		contentRaw = v
	}
	if isErr {
		content := []any{}
		if decodeNumbers(contentRaw, &content) != nil {
			return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: \"content\" is not an array"), tool)
		}
		e := serverError(core.CodeToolError, cfg.Name, cfg, "tool %q reported an error: %s", wire, errorText(cfg, content))
		e.Tool = tool
		e.Result = redactedResult(cfg, raw, contentRaw)
		e.Cause = &ToolError{Server: cfg.Name, Tool: wire, Content: unwrapContent(content)}
		return nil, e
	}
	if err := checkOutput(cfg, tool, wire, fields, output); err != nil {
		return nil, err
	}
	if mode != ResultFull {
		content := []any{}
		if decodeNumbers(contentRaw, &content) != nil {
			return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: \"content\" does not decode"), tool)
		}
		if u := unwrapContent(content); !isList(u) {
			return u, nil // one text item whose text is not a string: LionAGI gives the value itself
		}
		list, err := rewriteJSON(contentRaw, nil)
		if err != nil {
			return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: \"content\" is %s", err), tool)
		}
		return list, nil
	}
	whole, err := fullResult(raw, contentRaw, nil)
	if err != nil {
		return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: it is %s", err), tool)
	}
	return whole, nil
}

// fullResult is the result object raw (valid JSON) as rewriteJSON writes it
// through fix, its "content" replaced by content (the list, or [] when
// the server sent none), every key where the server put it.
func fullResult(raw, content json.RawMessage, fix func(string) string) (json.RawMessage, error) {
	whole, ok := jsontext.Replace(raw, "content", content)
	if !ok {
		whole = json.RawMessage(`{"content":[]}`)
	}
	return rewriteJSON(whole, fix)
}

// checkOutput checks the result's structuredContent against output (none
// when output is nil or structuredContent is absent or null).
func checkOutput(cfg *ServerConfig, tool, wire string, fields map[string]json.RawMessage, output *core.CompiledSchema) error {
	if sc, ok := fields["structuredContent"]; ok && output != nil && jsontext.Kind(sc) != "null" {
		return checkStructured(cfg, tool, wire, sc, output)
	}
	return nil
}

// singleText returns the text of a content list (valid JSON) holding one
// item of type "text" whose "text" is a string, as unwrapContent would
// give it; false for any other content, which is decoded instead.
func singleText(content json.RawMessage) (string, bool) {
	if jsontext.Kind(content) != jsontext.Array {
		return "", false
	}
	i := jsontext.SkipSpace(content, 0) + 1
	i = jsontext.SkipSpace(content, i)
	if i >= len(content) || content[i] == ']' {
		return "", false
	}
	end := jsontext.EndOfValue(content, i)
	if j := jsontext.SkipSpace(content, end); j >= len(content) || content[j] != ']' {
		return "", false // more than one item
	}
	ms, ok := jsontext.SplitValid(content[i:end])
	if !ok {
		return "", false
	}
	var typ, text json.RawMessage
	for _, m := range ms {
		switch m.Key {
		case "type":
			typ = m.Value
		case "text":
			text = m.Value
		}
	}
	if jsontext.Kind(typ) != jsontext.String || jsontext.Unquote(typ) != "text" || jsontext.Kind(text) != jsontext.String {
		return "", false
	}
	return jsontext.Unquote(text), true
}

// unwrapResult is readResult in LionAGI mode without an outputSchema.
func unwrapResult(cfg *ServerConfig, tool, wire string, raw json.RawMessage) (any, error) {
	return readResult(cfg, tool, wire, raw, ResultLionAGI, nil)
}

// unwrapContent is LionAGI's unwrapping (docs/lionagi.md, "The proxy"): a
// content list of one item of type "text" gives that item's "text" (""
// when absent); any other content, [] included, is the list.
func unwrapContent(content []any) any {
	if len(content) == 1 {
		if item, ok := content[0].(map[string]any); ok && item["type"] == "text" {
			if text, ok := item["text"]; ok {
				return text
			}
			return ""
		}
	}
	return content
}

// isList reports whether v is a decoded JSON array.
func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// decodeNumbers decodes JSON into v keeping numbers as json.Number.
func decodeNumbers(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// checkStructured validates structuredContent against the outputSchema:
// invalid-result listing each issue (paths are JSON Pointers into
// structuredContent, messages redacted).
func checkStructured(cfg *ServerConfig, tool, wire string, sc json.RawMessage, output *core.CompiledSchema) error {
	var v any
	if decodeNumbers(sc, &v) != nil {
		return named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: \"structuredContent\" does not decode"), tool)
	}
	issues, err := output.ValidateValue(tool, v)
	if err != nil {
		return named(prefixed(cfg, wire, err), tool)
	}
	if len(issues) == 0 {
		return nil
	}
	parts := make([]string, 0, 5)
	for i := range issues {
		issues[i].Message = cfg.scrub(issues[i].Message)
		if i < 5 {
			path := issues[i].Path
			if path == "" {
				path = "(root)"
			}
			parts = append(parts, path+" ("+issues[i].Keyword+")")
		}
	}
	if len(issues) > 5 {
		parts = append(parts, "…")
	}
	e := serverError(core.CodeInvalidResult, cfg.Name, cfg,
		"tool %q: structuredContent does not match the tool's outputSchema at %s", wire, strings.Join(parts, ", "))
	e.Tool = tool
	e.Issues = issues
	return e
}

// redactedResult is the whole result as compact JSON with content [] when
// absent, the server's key order kept, and every string (keys too) cleared
// of the config's secrets.
func redactedResult(cfg *ServerConfig, raw, content json.RawMessage) json.RawMessage {
	b, err := fullResult(raw, content, cfg.scrub)
	if err != nil {
		return json.RawMessage(`{"content":[],"isError":true}`)
	}
	return b
}
