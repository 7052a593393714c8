package core

// Near misses: values that look like a provider's output but are no whole
// response (a streamed chunk or event, a snapshot still streaming, a list of
// messages, one choice of a completion). Reading them as a response would
// find no call, and a loop would end as if the model had called nothing, so
// ParseToolCalls refuses them, saying what the value is and what to pass.

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The keywords of a near miss's issue: what code and tests compare.
const (
	// KeywordStreamed: a piece of a stream (a chunk, an event, a snapshot
	// still streaming, LangChain tool_call_chunks not concatenated).
	KeywordStreamed = "streamed"
	// KeywordShape: a value of a known kind that is no provider response
	// (a list of messages, one choice or candidate, an API error, ...).
	KeywordShape = "shape"
)

// anthropicEvents are the event types of an Anthropic Messages stream.
var anthropicEvents = map[string]bool{
	"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true, "ping": true,
}

// aiSDKParts are the Vercel AI SDK's tool call and stream part types.
var aiSDKParts = map[string]bool{
	"tool-call": true, "tool-input-start": true, "tool-input-delta": true, "tool-input-end": true,
	"tool-call-delta": true, "tool-call-streaming-start": true, "text-delta": true, "start-step": true, "finish-step": true,
}

// nearMiss is the refusal of an object at ptr that looks like a provider's
// output but is no whole response, or nil. inList is true for an item of a
// list, where a whole message or response is a near miss too.
func nearMiss(m map[string]json.RawMessage, ptr string, inList bool) error {
	if kw, what, pass := streamedPiece(m); kw != "" {
		return nearMissError(ptr, kw, what, pass)
	}
	if what, pass := notResponse(m, inList); what != "" {
		return nearMissError(ptr, KeywordShape, what, pass)
	}
	return nil
}

// nearMissError is the invalid-request refusal of a near miss at ptr, its
// issue carrying the keyword.
func nearMissError(ptr, keyword, what, pass string) error {
	at := ""
	if ptr != "" {
		at = " (at " + jsontext.Display(ptr) + ")"
	}
	msg := "this is " + what + at + ", no whole provider response: " + pass
	return &Error{Code: CodeInvalidRequest, Message: msg + ".", Issues: []Issue{{Path: ptr, Keyword: keyword, Message: msg}}}
}

// streamedPiece names a piece of a stream: its keyword (KeywordShape for an
// error event), what it is and what to pass instead; "" for anything else.
func streamedPiece(m map[string]json.RawMessage) (keyword, what, pass string) {
	typ := jsontext.StringMember(m, "type")
	obj := jsontext.StringMember(m, "object")
	switch {
	case obj == "chat.completion.chunk" || firstChoiceHas(m, "delta"):
		return KeywordStreamed, "a streamed chunk (chat.completion.chunk)", "accumulate the stream and pass the final completion or message, e.g. the SDK's finalChatCompletion()"
	case has(m, "delta") && !has(m, "message") && (has(m, "index") || has(m, "finish_reason")):
		return KeywordStreamed, "a choice of a streamed chunk (its delta)", "accumulate the stream and pass the final completion or message, e.g. the SDK's finalChatCompletion()"
	case strings.HasPrefix(typ, "response.") && typ != "response.completed" && typ != "response.incomplete":
		return KeywordStreamed, "a Responses stream event (" + typ + ")", "pass the final response: the SDK's finalResponse(), or the response of the response.completed event"
	case strings.HasPrefix(typ, "response."):
		return KeywordStreamed, "a Responses stream event (" + typ + ")", "pass its response member"
	case obj == "response" && (jsontext.StringMember(m, "status") == "in_progress" || jsontext.StringMember(m, "status") == "queued"):
		return KeywordStreamed, "a Responses response still " + strings.ReplaceAll(jsontext.StringMember(m, "status"), "_", " "), "pass the final response: the SDK's finalResponse(), or the response of the response.completed event"
	case anthropicEvents[typ]:
		return KeywordStreamed, "an Anthropic stream event (" + typ + ")", "accumulate the stream and pass the final message, e.g. the SDK's finalMessage()"
	case typ == "message" && has(m, "stop_reason") && jsontext.Absent(m["stop_reason"]) && jsontext.StringMember(m, "role") == "assistant":
		return KeywordStreamed, "an Anthropic message still streaming (stop_reason null)", "pass the final message, e.g. the SDK's finalMessage()"
	case aiSDKParts[typ]:
		return KeywordShape, "a Vercel AI SDK " + typ + " part", "hand the branch to the AI SDK with toolgate/ai-sdk, which runs the calls, or pass {id: toolCallId, function: toolName, arguments: input} to match"
	case typ == "tool_call_chunk" || hasItems(m, "tool_call_chunks") && !has(m, "tool_calls"):
		return KeywordStreamed, "a LangChain tool call chunk", "concatenate the chunks (chunk.concat(next), or concat from @langchain/core/utils/stream) and pass the final message"
	case typ == "error" || has(m, "error") && len(m) <= 2:
		return KeywordShape, "an error from the provider's API", "the request failed: there is no model output to read"
	}
	return "", "", ""
}

// notResponse names a value of a known kind that is no response (and what
// to pass instead); "" for anything else.
func notResponse(m map[string]json.RawMessage, inList bool) (what, pass string) {
	switch {
	case len(m) == 0:
		return "an empty object", "pass the model's response or its message"
	case has(m, "message") && (has(m, "finish_reason") || has(m, "index")) && !has(m, "choices"):
		return "one choice of an OpenAI Chat completion", "pass the completion, or its choices[0].message"
	case objectMember(m, "content") && (has(m, "finishReason") || has(m, "safetyRatings")) && !has(m, "role"):
		return "one candidate of a Gemini response", "pass the response, or its candidates[0].content"
	case inList && has(m, "role") && !has(m, "type"):
		return "a message in a list (a conversation's history?)", "pass the model's last response or message alone"
	case inList && (has(m, "choices") || has(m, "candidates")):
		return "a whole response in a list", "pass each response alone"
	}
	return "", ""
}

// firstChoiceHas reports whether m["choices"][0] has the member key.
func firstChoiceHas(m map[string]json.RawMessage, key string) bool {
	var choices []json.RawMessage
	if !arrayMember(m, "choices") || json.Unmarshal(m["choices"], &choices) != nil || len(choices) == 0 {
		return false
	}
	first, ok := jsontext.Members(choices[0])
	return ok && has(first, key) && !has(first, "message")
}

// hasItems reports whether m[key] is a non-empty JSON array.
func hasItems(m map[string]json.RawMessage, key string) bool {
	var items []json.RawMessage
	return arrayMember(m, key) && json.Unmarshal(m[key], &items) == nil && len(items) > 0
}
