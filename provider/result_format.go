package provider

// The tool-result message of each target.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// FormatToolResult writes one call's outcome as target's tool-result
// message:
//
//   - openai-chat: {"role": "tool", "tool_call_id", "content": text};
//   - openai-responses: {"type": "function_call_output", "call_id", "output": text};
//   - anthropic: {"type": "tool_result", "tool_use_id", "content": text},
//     with "is_error": true for a failure only;
//   - gemini: {"functionResponse": {"id"?, "name", "response": {"output": value}}},
//     {"error": text} instead of output for a failure (the keys Gemini's
//     FunctionResponse documents); integers beyond ±(2^53−1) in value are
//     written as strings of their exact digits, so JavaScript keeps them;
//   - mcp: {"content": [{"type": "text", "text": text}]}, with "isError":
//     true for a failure only; a tool-error whose Result has content
//     items sends those (the tool's own content) instead of the text.
//
// The text of a completed call is its output: a string as is, any other
// value as JSON. A failure's text is written for the model (FailureText):
// it names the tool, each field and rule, and how to correct the call.
//
// It refuses with invalid-request an unknown target, a nil result, a
// result with neither a function name nor an error, output that is not one
// JSON value, and a result without the call id an OpenAI or Anthropic
// target needs, or (gemini) without the function name.
func FormatToolResult(target string, r *ToolResult) (json.RawMessage, error) {
	if err := checkResultTarget(target); err != nil {
		return nil, err
	}
	if err := checkResult(target, r); err != nil {
		return nil, err
	}
	failed := r.Error != nil
	text := ""
	if failed {
		text = FailureText(r)
	} else {
		text = outputText(r.Output)
	}
	var b resultWriter
	switch target {
	case core.ProviderOpenAIChat:
		b.object().str("role", "tool").str("tool_call_id", r.CallID).str("content", text)
	case core.ProviderOpenAIResponses:
		b.object().str("type", "function_call_output").str("call_id", r.CallID).str("output", text)
	case core.ProviderAnthropic:
		b.object().str("type", "tool_result").str("tool_use_id", r.CallID).str("content", text)
		if failed {
			b.raw("is_error", []byte("true"))
		}
	case core.ProviderGemini:
		geminiResponse(&b, r, text)
	case MCP:
		content := toolErrorContent(r.Error)
		if content == nil {
			var item resultWriter
			item.object().str("type", "text").str("text", text)
			content = append(append([]byte{'['}, item.close()...), ']')
		}
		b.object().raw("content", content)
		if failed {
			b.raw("isError", []byte("true"))
		}
	}
	return b.close(), nil
}

// toolErrorContent is the content array of a tool-error's own result (the
// tool's content items, for the mcp target), or nil when e is not a
// tool-error or its result has no content items.
func toolErrorContent(e *ToolResultError) json.RawMessage {
	if e == nil || e.Code != core.CodeToolError {
		return nil
	}
	fields, ok := jsontext.Members(e.Result)
	if !ok {
		return nil
	}
	c := bytes.TrimSpace(fields["content"])
	var items []json.RawMessage
	if jsontext.Kind(c) != jsontext.Array || json.Unmarshal(c, &items) != nil || len(items) == 0 {
		return nil // no items of its own: the failure text says what happened
	}
	return c
}

// geminiResponse writes Gemini's functionResponse part.
func geminiResponse(b *resultWriter, r *ToolResult, text string) {
	var resp resultWriter
	resp.object()
	if r.Error != nil {
		resp.str("error", text)
	} else {
		out := bytes.TrimSpace(r.Output)
		if len(out) == 0 {
			out = []byte("null")
		}
		resp.raw("output", quoteBigIntegers(out))
	}
	var fr resultWriter
	fr.object()
	if r.CallID != "" {
		fr.str("id", r.CallID)
	}
	fr.str("name", r.Function).raw("response", resp.close())
	b.object().raw("functionResponse", fr.close())
}

// FormatToolResults writes the outcomes of the calls of one response as
// target's next message: an array of messages (openai-chat), of input
// items (openai-responses) or of results (mcp), {"role": "user",
// "content": [tool_result blocks]} (anthropic), {"role": "user", "parts":
// [functionResponse parts]} (gemini). It refuses what FormatToolResult
// refuses, naming the result, and an empty list with invalid-request.
func FormatToolResults(target string, rs []*ToolResult) (json.RawMessage, error) {
	if err := checkResultTarget(target); err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, core.Errorf(core.CodeInvalidRequest, "", "there are no results to write: pass at least one call.")
	}
	list := []byte{'['}
	for i, r := range rs {
		msg, err := FormatToolResult(target, r)
		if err != nil {
			e := *core.AsError(err)
			e.Message = "result " + strconv.Itoa(i) + ": " + e.Message
			return nil, &e
		}
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, msg...)
	}
	list = append(list, ']')
	var b resultWriter
	switch target {
	case core.ProviderAnthropic:
		b.object().str("role", "user").raw("content", list)
	case core.ProviderGemini:
		b.object().str("role", "user").raw("parts", list)
	default:
		return list, nil
	}
	return b.close(), nil
}

// checkResultTarget refuses a result target that is not one of Targets.
func checkResultTarget(target string) error {
	if slices.Contains(Targets, target) {
		return nil
	}
	return core.Errorf(core.CodeInvalidRequest, "", "unknown result target %s: want %s.", strconv.Quote(target), jsontext.Choice(Targets))
}

// checkResult refuses a result target cannot write.
func checkResult(target string, r *ToolResult) error {
	if r == nil {
		return core.Errorf(core.CodeInvalidRequest, "", "the result is null.")
	}
	name := r.Function
	if name == "" && r.Error == nil {
		return core.Errorf(core.CodeInvalidRequest, "", "the result names no function.")
	}
	tool := "the tool"
	if name != "" {
		tool = "tool " + strconv.Quote(name)
	}
	switch {
	case r.CallID == "" && target != core.ProviderGemini && target != MCP:
		return core.Errorf(core.CodeInvalidRequest, name, "the result of %s has no call id, which a tool result for %s needs: take the call from a provider response that carries one (parseToolCalls keeps it).", tool, target)
	case name == "" && target == core.ProviderGemini:
		return core.WithCall(core.Errorf(core.CodeInvalidRequest, "", "the result has no function name, which a gemini functionResponse needs."), "", r.CallID)
	case r.Error == nil && len(bytes.TrimSpace(r.Output)) > 0 && !json.Valid(r.Output):
		return core.WithCall(core.Errorf(core.CodeInvalidRequest, name, "the output of %s is not one JSON value.", tool), name, r.CallID)
	}
	return nil
}

// resultWriter writes one JSON object member by member.
type resultWriter struct{ buf []byte }

func (w *resultWriter) object() *resultWriter {
	w.buf = append(w.buf[:0], '{')
	return w
}

func (w *resultWriter) member(key string) {
	if len(w.buf) > 1 {
		w.buf = append(w.buf, ',')
	}
	w.buf = jsontext.AppendString(w.buf, key)
	w.buf = append(w.buf, ':')
}

func (w *resultWriter) str(key, v string) *resultWriter {
	w.member(key)
	w.buf = jsontext.AppendString(w.buf, v)
	return w
}

func (w *resultWriter) raw(key string, v []byte) *resultWriter {
	w.member(key)
	w.buf = append(w.buf, v...)
	return w
}

func (w *resultWriter) close() json.RawMessage {
	return append(w.buf, '}')
}
