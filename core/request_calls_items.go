package core

// One item of a provider response: a tool call in one of the provider
// shapes, or anything else (text, reasoning, a server-side tool), which is
// no call.

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// callShape is where one provider shape keeps a call's parts.
type callShape struct {
	provider, nameKey, argsKey, id string
	argsOptional, custom           bool
}

// readCall reads one object as a call. isCall is false for an item that is
// no function call; err is set for a call that cannot be read (no usable
// name, or arguments missing where the shape requires them).
func readCall(m map[string]json.RawMessage) (req *Request, isCall bool, err error) {
	shape, fields, ok := callShapeOf(m)
	if !ok {
		return nil, false, nil
	}
	req, err = shapeCall(shape, fields)
	return req, err == nil, err
}

// callShapeOf finds the shape of a call and the object holding its name and
// arguments; false for an item that is no call.
func callShapeOf(m map[string]json.RawMessage) (callShape, map[string]json.RawMessage, bool) {
	typ := jsontext.StringMember(m, "type")
	switch {
	case typ == "function_call":
		return callShape{provider: ProviderOpenAIResponses, nameKey: "name", argsKey: "arguments", id: responsesCallID(m)}, m, true
	case typ == "custom_tool_call":
		return callShape{provider: ProviderOpenAIResponses, nameKey: "name", argsKey: "input", id: responsesCallID(m), custom: true}, m, true
	case typ == "tool_use":
		return callShape{provider: ProviderAnthropic, nameKey: "name", argsKey: "input", id: jsontext.StringMember(m, "id")}, m, true
	case typ == "tool_call" || typ == "invalid_tool_call":
		return callShape{provider: ProviderOpenAIChat, nameKey: "name", argsKey: "args", id: jsontext.StringMember(m, "id")}, m, true // LangChain's
	case typ == "custom" && has(m, "custom"):
		inner, ok := jsontext.Members(m["custom"])
		return callShape{provider: ProviderOpenAIChat, nameKey: "name", argsKey: "input", id: jsontext.StringMember(m, "id"), custom: true}, inner, ok
	case has(m, "functionCall"):
		inner, ok := jsontext.Members(m["functionCall"])
		return callShape{provider: ProviderGemini, nameKey: "name", argsKey: "args", id: jsontext.StringMember(inner, "id"), argsOptional: true}, inner, ok
	case typ != "" && typ != "function":
		return callShape{}, nil, false // another kind of item: text, reasoning, a server tool
	case objectMember(m, "function"):
		inner, _ := jsontext.Members(m["function"])
		return callShape{provider: ProviderOpenAIChat, nameKey: "name", argsKey: "arguments", id: jsontext.StringMember(m, "id")}, inner, true
	case has(m, "function") && has(m, "arguments") && has(m, "provider"):
		return callShape{provider: jsontext.StringMember(m, "provider"), nameKey: "function", argsKey: "arguments", id: jsontext.StringMember(m, "id")}, m, true
	case typ == "" && geminiFunctionCall(m):
		return callShape{provider: ProviderGemini, nameKey: "name", argsKey: "args", id: jsontext.StringMember(m, "id"), argsOptional: true}, m, true
	}
	return callShape{}, nil, false
}

// responsesCallID is a Responses item's call_id, else its id.
func responsesCallID(m map[string]json.RawMessage) string {
	if id := jsontext.StringMember(m, "call_id"); id != "" {
		return id
	}
	return jsontext.StringMember(m, "id")
}

// geminiFunctionCall reports whether m is a bare Gemini FunctionCall: a
// string name, and no members but id, name, args and the streaming ones.
func geminiFunctionCall(m map[string]json.RawMessage) bool {
	if jsontext.Kind(m["name"]) != "string" {
		return false
	}
	for k := range m {
		switch k {
		case "id", "name", "args", "partialArgs", "willContinue":
		default:
			return false
		}
	}
	return true
}

// objectMember reports whether m[key] is a JSON object.
func objectMember(m map[string]json.RawMessage, key string) bool {
	r := bytes.TrimSpace(m[key])
	return len(r) > 0 && r[0] == '{'
}

// shapeCall reads the name and arguments of a call of a known shape. An
// argument decoding error keeps the call, with the text in RawArguments.
func shapeCall(s callShape, f map[string]json.RawMessage) (*Request, error) {
	if !knownProvider(s.provider) || s.provider == ProviderLionAGI {
		return nil, WithCall(Errorf(CodeInvalidRequest, "", "\"provider\" of a call must be one of %q, %q, %q or %q.",
			ProviderOpenAIChat, ProviderOpenAIResponses, ProviderAnthropic, ProviderGemini), "", s.id)
	}
	raw, ok := f[s.nameKey]
	var name string
	if !ok || json.Unmarshal(raw, &name) != nil || name == "" {
		return nil, WithCall(Errorf(CodeInvalidRequest, "", "%s tool call must have a non-empty string %q.", providerPhrase(s.provider, "a"), s.nameKey), "", s.id)
	}
	rawArgs, ok := f[s.argsKey]
	switch {
	case !ok && !s.argsOptional:
		return nil, WithCall(Errorf(CodeInvalidRequest, name, "%s tool call of %s has no %q.", providerPhrase(s.provider, "the"), name, s.argsKey), name, s.id)
	case !ok || s.argsOptional && jsontext.Absent(rawArgs):
		rawArgs = json.RawMessage("{}") // Gemini leaves args out for a call without arguments
	case s.custom:
		rawArgs = customInput(rawArgs)
	}
	req := &Request{ID: s.id, Function: name, Provider: s.provider}
	args, err := providerArguments(s.provider, name, s.argsKey, rawArgs)
	if err != nil {
		req.RawArguments, req.argsErr = argumentText(rawArgs), WithCall(err, name, s.id)
		return req, nil
	}
	req.Arguments = args
	return req, nil
}

// customInput is the arguments of a custom tool call: {"input": text}.
func customInput(raw json.RawMessage) json.RawMessage {
	out := append([]byte(`{"input":`), bytes.TrimSpace(raw)...)
	return append(out, '}')
}

// argumentText is the text of an arguments member kept as it came: a
// string's text, or any other value's JSON.
func argumentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}

// providerLabels are the providers' names as people write them.
var providerLabels = map[string]string{ProviderOpenAIChat: "OpenAI Chat", ProviderOpenAIResponses: "OpenAI Responses", ProviderAnthropic: "Anthropic", ProviderGemini: "Gemini"}

// providerPhrase is "an OpenAI Chat" or "a Gemini" (article "a"), or "the OpenAI Chat"
// (article "the"): a provider named for a sentence, never "a openai-chat".
func providerPhrase(provider, article string) string {
	label, ok := providerLabels[provider]
	if !ok {
		label = provider
	}
	if article == "a" && label != "" && strings.ContainsAny(label[:1], "AEIOUaeiou") {
		article = "an"
	}
	return article + " " + label
}
