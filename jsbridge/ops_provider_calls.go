package jsbridge

import (
	"encoding/json"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/provider"
)

// opProviderParseToolCalls reads a provider response (JSON text) with
// core.ParseToolCalls, for tg.parseToolCalls. The result is a JSON array of
// {"id": string | null, "function", "arguments": {...} | "<text it could
// not decode>", "provider", "bigints"?: [pointers into arguments]}.
func opProviderParseToolCalls(_ *Bridge, _ int64, payload []byte) (any, error) {
	calls, err := core.ParseToolCalls(payload)
	if err != nil {
		return nil, err
	}
	buf := []byte{'['}
	for i, c := range calls {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendToolCall(buf, c)
	}
	return json.RawMessage(append(buf, ']')), nil
}

// appendToolCall writes one call as opProviderParseToolCalls describes.
func appendToolCall(buf []byte, c *core.Request) []byte {
	buf = append(buf, `{"id":`...)
	if c.ID == "" {
		buf = append(buf, "null"...)
	} else {
		buf = jsontext.AppendString(buf, c.ID)
	}
	buf = append(buf, `,"function":`...)
	buf = jsontext.AppendString(buf, c.Function)
	buf = append(buf, `,"arguments":`...)
	var bigints []string
	if c.Arguments == nil {
		buf = jsontext.AppendString(buf, c.RawArguments)
	} else {
		buf = appendJSArguments(buf, c.Arguments, &bigints)
	}
	buf = append(buf, `,"provider":`...)
	buf = jsontext.AppendString(buf, c.Provider)
	if len(bigints) > 0 {
		buf = append(buf, `,"bigints":`...)
		data, _ := json.Marshal(bigints)
		buf = append(buf, data...)
	}
	return append(buf, '}')
}

// toolResultPayload is what tg.toolResult sends: the target, the results
// (one per call, as provider.ToolResult reads them) and whether the caller
// passed a list (then the whole next message is written).
type toolResultPayload struct {
	Target  string                 `json:"target"`
	Results []*provider.ToolResult `json:"results"`
	List    bool                   `json:"list"`
}

// opProviderToolResult writes tool results as a provider message
// (provider.FormatToolResult, or provider.FormatToolResults for a list), for
// tg.toolResult.
func opProviderToolResult(_ *Bridge, _ int64, payload []byte) (any, error) {
	var p toolResultPayload
	if err := decodeStrict(payload, &p, "toolResult"); err != nil {
		return nil, err
	}
	if p.List {
		return provider.FormatToolResults(p.Target, p.Results)
	}
	if len(p.Results) != 1 {
		return nil, core.Errorf(core.CodeInvalidRequest, "", "toolResult: want one result, got %d.", len(p.Results))
	}
	return provider.FormatToolResult(p.Target, p.Results[0])
}

// registerProviderCallOps adds the ops of calls in and results out.
func registerProviderCallOps(b *Bridge) {
	b.Register("provider.parseToolCalls", opProviderParseToolCalls)
	b.Register("provider.toolResult", opProviderToolResult)
}
