package core

// LangChain's messages: an AIMessage (or AIMessageChunk) as plain data
// ({content, tool_calls: [{id, name, args, type: "tool_call"}],
// invalid_tool_calls, ...}), as JSON.stringify writes an instance
// ({lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs: {...}}),
// and as toDict writes it ({type: "ai", data: {...}}).
//
// LangChain's calls follow OpenAI Chat's rules (an arguments text that is
// blank is {}), and their results go back as OpenAI Chat's tool message
// ({role: "tool", tool_call_id, content}, which LangChain reads as a
// ToolMessage): they carry the provider "openai-chat".

import (
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// langChainMessage finds a LangChain AI message in m: its members, and
// whether m is one. A serialised LangChain object of another class (a
// ToolMessage, a HumanMessage) is refused.
func langChainMessage(m map[string]json.RawMessage) (map[string]json.RawMessage, bool, error) {
	switch {
	case jsontext.StringMember(m, "type") == "constructor" && has(m, "lc") && has(m, "kwargs"):
		var id []string
		_ = json.Unmarshal(m["id"], &id)
		class := ""
		if len(id) > 0 {
			class = id[len(id)-1]
		}
		kw, ok := jsontext.Members(m["kwargs"])
		if !ok || class != "AIMessage" && class != "AIMessageChunk" {
			return nil, false, nearMissError("", KeywordShape, "a serialised LangChain "+orUnknown(class), "pass the model's AIMessage")
		}
		return kw, true, nil
	case jsontext.StringMember(m, "type") == "ai" && objectMember(m, "data") && len(m) == 2:
		data, _ := jsontext.Members(m["data"])
		return data, true, nil
	case has(m, "tool_calls") && langChainItems(m["tool_calls"]) || has(m, "invalid_tool_calls") || has(m, "tool_call_chunks"):
		return m, true, nil
	}
	return nil, false, nil
}

// orUnknown is a class name, or words for a missing one.
func orUnknown(class string) string {
	if class == "" {
		return "object of unknown class"
	}
	return class
}

// langChainItems reports whether a tool_calls list holds LangChain calls
// (an args member or the type "tool_call") rather than OpenAI Chat's.
func langChainItems(raw json.RawMessage) bool {
	var items []map[string]json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return false
	}
	for _, it := range items {
		if has(it, "args") || jsontext.StringMember(it, "type") == "tool_call" {
			return true
		}
	}
	return false
}

// readLangChain reads the calls of a LangChain AI message: tool_calls, then
// invalid_tool_calls (kept with their text, so that Match refuses them with
// invalid-arguments). A chunk's calls are read from its tool_call_chunks,
// whose text is the arguments as streamed (its tool_calls hold what a
// partial parse made of them); chunks not yet whole are refused.
func readLangChain(calls []*Request, m map[string]json.RawMessage) ([]*Request, error) {
	if hasItems(m, "tool_call_chunks") {
		return readLangChainChunks(calls, m["tool_call_chunks"])
	}
	for _, key := range []string{"tool_calls", "invalid_tool_calls"} {
		var items []map[string]json.RawMessage
		if jsontext.Absent(m[key]) {
			continue
		}
		if json.Unmarshal(m[key], &items) != nil {
			return nil, Errorf(CodeInvalidRequest, "", "%q of a LangChain message must be a list of objects.", key)
		}
		for _, it := range items {
			req, err := langChainCall(it)
			if err != nil {
				return nil, err
			}
			calls = append(calls, req)
		}
	}
	return calls, nil
}

// langChainCall reads one LangChain tool call ({id, name, args}).
func langChainCall(it map[string]json.RawMessage) (*Request, error) {
	shape := callShape{provider: ProviderOpenAIChat, nameKey: "name", argsKey: "args", id: jsontext.StringMember(it, "id")}
	return shapeCall(shape, it)
}

// readLangChainChunks reads a chunk's tool_call_chunks when each is a whole
// call: a name, one piece per index, and arguments text that is complete
// JSON (or blank: no arguments).
func readLangChainChunks(calls []*Request, raw json.RawMessage) ([]*Request, error) {
	var items []map[string]json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, Errorf(CodeInvalidRequest, "", "\"tool_call_chunks\" of a LangChain message must be a list of objects.")
	}
	seen := map[string]bool{}
	for _, it := range items {
		idx := string(it["index"])
		var text string
		whole := jsontext.StringMember(it, "name") != "" && json.Unmarshal(it["args"], &text) == nil &&
			(blankString(it["args"]) || json.Valid([]byte(text)))
		if !whole || idx != "" && seen[idx] {
			return nil, nearMissError("/tool_call_chunks", KeywordStreamed, "a LangChain message chunk whose tool_call_chunks are not whole calls yet",
				"concatenate the chunks (chunk.concat(next), or concat from @langchain/core/utils/stream) and pass the final message")
		}
		seen[idx] = true
		req, err := langChainCall(it)
		if err != nil {
			return nil, err
		}
		calls = append(calls, req)
	}
	return calls, nil
}
