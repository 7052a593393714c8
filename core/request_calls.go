package core

// Calls in: every tool call of a whole provider response, in order, as
// Requests Match accepts.

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// maxResponseDepth is the deepest nesting ParseToolCalls reads: the
// arguments' limit and the levels of the deepest response shape above them
// (a Gemini response's candidates[0].content.parts[i].functionCall.args).
const maxResponseDepth = MaxArgumentDepth + 8

// ParseToolCalls reads every tool call of one provider response, in order:
//
//   - an OpenAI Chat completion (the tool_calls of choices[0].message), or
//     an assistant message with tool_calls;
//   - an OpenAI Responses response (its output items of type function_call),
//     or its output array;
//   - an Anthropic message (its content blocks of type tool_use), or its
//     content array;
//   - a Gemini GenerateContentResponse (the functionCall parts of
//     candidates[0].content), a Content ({role, parts}) or a parts array;
//   - a LangChain.js AIMessage: its plain data (tool_calls of {id, name,
//     args, type: "tool_call"}, invalid_tool_calls kept with their text), as
//     JSON.stringify writes an instance ({lc, type: "constructor", id,
//     kwargs}) or toDict ({type: "ai", data}), and a concatenated
//     AIMessageChunk (read from its tool_call_chunks); these calls follow
//     OpenAI Chat's rules and carry its provider (request_calls_langchain.go);
//   - one call in any of these shapes (a Chat tool call, a function_call
//     item, a tool_use block, a Gemini part or FunctionCall, a LangChain
//     tool call), or a call as ParseToolCalls writes it ({function,
//     arguments, id, provider});
//   - a JSON string whose text is one of these.
//
// Items that are no function call are skipped: text, reasoning, thinking,
// refusals, server-side tool use (Anthropic's server_tool_use, OpenAI's
// web_search_call, ...). Only the first choice or candidate is read: the
// others are alternatives, not further calls. A custom tool call (Chat's
// {"type": "custom", "custom": {name, input}}, Responses'
// custom_tool_call) is no JSON-arguments call: it is returned with the
// arguments {"input": "<its text>"}, for a tool with one string parameter
// named input. A response with no call gives an empty list.
//
// Each Request has the call id ("" when the provider sent none: Gemini
// may not), the function name, the decoded arguments (a blank OpenAI
// arguments string is {}), and the Provider of the shape. A call whose
// arguments cannot be decoded (malformed JSON text, nesting or size over
// the limits) is kept, with Arguments nil and the text in RawArguments, so
// that Match refuses it with that decoding error (invalid-arguments for
// malformed text), carrying the call id.
//
// It refuses with invalid-request, and an issue with keyword "streamed" or
// "shape", a value that looks like a provider's output but is no whole
// response, saying what it is and what to pass instead: a stream's chunks
// and events (OpenAI Chat chunks, Responses and Anthropic stream events,
// alone or in a list), a snapshot still streaming, LangChain chunks not yet
// whole, a list of messages, one choice or candidate, an API error
// (request_calls_nearmiss.go). It refuses with invalid-request a value that
// is no provider response (a number, a LionAGI {function, arguments} call without a provider, an
// object of no known shape, a list holding a value that is not an object,
// nesting deeper than maxResponseDepth: an issue with keyword maxDepth;
// more than MaxRequestBytes: keyword maxBytes, refused on the length alone),
// and a call without a usable name (missing, empty, not a string).
func ParseToolCalls(data []byte) ([]*Request, error) {
	if err := requestSize("the provider response", data); err != nil {
		return nil, err
	}
	d := bytes.TrimSpace(data)
	if len(d) > 0 && d[0] == '"' {
		var s string
		if json.Unmarshal(d, &s) == nil {
			d = bytes.TrimSpace([]byte(s))
		}
	}
	if len(d) == 0 {
		return nil, Errorf(CodeInvalidRequest, "", "the provider response is empty.")
	}
	if jsontext.Scan(d, maxResponseDepth, false).TooDeep {
		msg := "the provider response nests deeper than " + strconv.Itoa(maxResponseDepth) + " levels of arrays and objects"
		return nil, &Error{Code: CodeInvalidRequest, Message: msg + ".", Issues: []Issue{{Path: "", Keyword: "maxDepth", Message: msg}}}
	}
	if !json.Valid(d) {
		return nil, Errorf(CodeInvalidRequest, "", "the provider response is not one JSON value (it is malformed or has trailing data).")
	}
	calls := []*Request{}
	switch d[0] {
	case '[':
		return readCallItems(calls, d, "")
	case '{':
		m, _ := jsontext.Members(d)
		if err := nearMiss(m, "", false); err != nil {
			return nil, err
		}
		return readCallObject(calls, m)
	}
	return nil, Errorf(CodeInvalidRequest, "", "a provider response must be a JSON object or array, got %s.", jsontext.Described(jsontext.Kind(d)))
}

// readCallObject reads a response object, a message or content, or one call.
func readCallObject(calls []*Request, m map[string]json.RawMessage) ([]*Request, error) {
	if lc, ok, err := langChainMessage(m); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return readLangChain(calls, lc)
	}
	switch {
	case has(m, "choices"):
		return readFirst(calls, m, "choices", "message", readCallObject)
	case has(m, "candidates"):
		return readFirst(calls, m, "candidates", "content", readCallObject)
	case has(m, "promptFeedback"):
		return calls, nil // a Gemini response to a blocked prompt: no candidates

	case has(m, "tool_calls"):
		return readCallList(calls, m, "tool_calls")
	case has(m, "output") && jsontext.StringMember(m, "object") == "response" || arrayMember(m, "output"):
		return readCallList(calls, m, "output")
	case has(m, "parts") || jsontext.StringMember(m, "role") == "model":
		return readCallList(calls, m, "parts") // a Gemini Content; parts may be left out
	case has(m, "role") && has(m, "content") || jsontext.StringMember(m, "type") == "message" || jsontext.StringMember(m, "role") == "assistant":
		if arrayMember(m, "content") {
			return readCallList(calls, m, "content")
		}
		return calls, nil // text content only: no calls
	}
	req, isCall, err := readCall(m)
	switch {
	case err != nil:
		return nil, err
	case isCall:
		return append(calls, req), nil
	case has(m, "function") && has(m, "arguments"):
		return nil, Errorf(CodeInvalidRequest, "", "a {function, arguments} call without \"provider\" is no provider response: pass it to Match as it is.")
	}
	return nil, Errorf(CodeInvalidRequest, "", "the value is no provider response (accepted: an OpenAI Chat completion or assistant message, a Responses response or output list, an Anthropic message or content list, a Gemini response, Content or parts, a LangChain AIMessage, or one tool call).")
}

// readFirst reads the first element of the array m[list] (its member
// inner, an object), with read; an empty or null list has no calls.
func readFirst(calls []*Request, m map[string]json.RawMessage, list, inner string, read func([]*Request, map[string]json.RawMessage) ([]*Request, error)) ([]*Request, error) {
	var items []json.RawMessage
	if jsontext.Absent(m[list]) {
		return calls, nil
	}
	if json.Unmarshal(m[list], &items) != nil {
		return nil, Errorf(CodeInvalidRequest, "", "%q of the provider response must be an array, got %s.", list, jsontext.Described(jsontext.Kind(m[list])))
	}
	if len(items) == 0 {
		return calls, nil
	}
	first, ok := jsontext.Members(items[0])
	if !ok {
		return nil, Errorf(CodeInvalidRequest, "", "%q[0] of the provider response must be an object, got %s.", list, jsontext.Described(jsontext.Kind(items[0])))
	}
	if jsontext.Absent(first[inner]) {
		return calls, nil // a blocked or empty candidate: no content, no calls
	}
	im, ok := jsontext.Members(first[inner])
	if !ok {
		return nil, Errorf(CodeInvalidRequest, "", "%q[0].%s of the provider response must be an object, got %s.", list, inner, jsontext.Described(jsontext.Kind(first[inner])))
	}
	return read(calls, im)
}

// readCallList reads the items of the array m[key]; null is no items.
func readCallList(calls []*Request, m map[string]json.RawMessage, key string) ([]*Request, error) {
	if jsontext.Absent(m[key]) {
		return calls, nil
	}
	return readCallItems(calls, m[key], "/"+key)
}

// readCallItems reads an array of items, parts or blocks: the calls are
// kept, the other objects skipped.
func readCallItems(calls []*Request, raw json.RawMessage, at string) ([]*Request, error) {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, Errorf(CodeInvalidRequest, "", "%s of the provider response must be an array, got %s.", jsontext.Display(at), jsontext.Described(jsontext.Kind(raw)))
	}
	for i, it := range items {
		m, ok := jsontext.Members(it)
		if !ok {
			return nil, Errorf(CodeInvalidRequest, "", "item %d of %s must be an object (a call or a content item), got %s.", i, jsontext.Display(at), jsontext.Described(jsontext.Kind(it)))
		}
		if err := nearMiss(m, at+"/"+strconv.Itoa(i), true); err != nil {
			return nil, err
		}
		req, isCall, err := readCall(m)
		if err != nil {
			return nil, err
		}
		if isCall {
			calls = append(calls, req)
		}
	}
	return calls, nil
}

// has reports whether m has the member key.
func has(m map[string]json.RawMessage, key string) bool {
	_, ok := m[key]
	return ok
}

// arrayMember reports whether m[key] is a JSON array.
func arrayMember(m map[string]json.RawMessage, key string) bool {
	r := bytes.TrimSpace(m[key])
	return len(r) > 0 && r[0] == '['
}
