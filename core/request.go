package core

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The shapes ParseRequest recognises, as Request.Provider names them.
const (
	ProviderLionAGI         = "lionagi"          // {"function", "arguments"} and {"action_request": {...}}
	ProviderOpenAIChat      = "openai-chat"      // {"id", "type": "function", "function": {"name", "arguments"}}
	ProviderOpenAIResponses = "openai-responses" // {"type": "function_call", "call_id", "name", "arguments"}
	ProviderAnthropic       = "anthropic"        // {"type": "tool_use", "id", "name", "input"}
	ProviderGemini          = "gemini"           // {"functionCall": {"name", "args", "id"?}} or {"name", "args"}
)

// Request is one call envelope, whatever shape it came in: the function
// name, its arguments, the provider's call id ("" when the shape has none)
// and the shape's Provider name.
//
// RawArguments is set only by ParseToolCalls, for a call whose arguments
// could not be decoded (malformed JSON text above all): it holds the
// argument text as the provider sent it, Arguments is nil, and Match
// refuses the request with the decoding error, carrying the call id.
type Request struct {
	ID           string
	Function     string
	Arguments    *Arguments
	Provider     string
	RawArguments string

	argsErr error // why RawArguments could not be decoded (ParseToolCalls)
}

// ParseRequest reads one call envelope:
//
//   - LionAGI {"function": "name", "arguments": {...} | "<json text>"}, also
//     nested as {"action_request": {...}}, with two optional members: "id"
//     (the call id, a string or null) and "provider" (one of the Provider
//     names, the shape ParseToolCalls writes: the arguments are then read
//     by that provider's rules, below);
//   - OpenAI Chat {"id", "type": "function", "function": {"name", "arguments": "<json text>"}};
//   - OpenAI Responses {"type": "function_call", "call_id", "name", "arguments": "<json text>"};
//   - Anthropic {"type": "tool_use", "id", "name", "input": {...}};
//   - Gemini {"functionCall": {"name", "args": {...}, "id"?}} (args may be
//     omitted, as Gemini does for a call without arguments; the Part's other
//     members, such as "thoughtSignature", are ignored) or the bare
//     FunctionCall {"name", "args"?, "id"?} (without args only when it has
//     no member FunctionCall lacks);
//   - a JSON string whose text is one of these.
//
// In every shape the arguments may be an object or a JSON string holding
// one; in the two OpenAI shapes an empty (or all white space) arguments
// string is the empty object, as OpenAI sends it for a tool without
// parameters (the LionAGI shape keeps LionAGI's refusal). In the provider
// shapes, argument text that is not JSON is invalid-arguments (keyword
// "json", the byte position in the message); LionAGI's shape without a
// provider keeps invalid-request. Keys are matched exactly. Errors of a
// request with a call id carry it (Error.CallID). It refuses with
// invalid-request: an unknown provider or an id that is not a string, a
// tool call that is not a function call (Anthropic's server_tool_use, say;
// an OpenAI custom tool call is read as ParseToolCalls reads it, with the
// arguments {"input": text}), anything
// that is not one JSON object (an array, a number, text that is not JSON,
// trailing data, a string holding a string), a missing or empty function
// name, missing arguments, and arguments that are neither an object nor a
// JSON string of one. Arguments are decoded by DecodeArguments, so nesting
// deeper than MaxArgumentDepth or a size over MaxArgumentBytes is
// invalid-arguments; the size is checked on the text before anything of
// the arguments is decoded (a blank OpenAI arguments string included). A
// request over MaxRequestBytes is invalid-request (keyword maxBytes),
// refused on its length alone.
func ParseRequest(data []byte) (*Request, error) {
	return parseRequest(data, true)
}

func parseRequest(data []byte, allowString bool) (*Request, error) {
	if err := requestSize("the request", data); err != nil {
		return nil, err
	}
	d := bytes.TrimSpace(data)
	if len(d) == 0 {
		return nil, Errorf(CodeInvalidRequest, "", "the request is empty.")
	}
	if jsontext.Scan(d, MaxArgumentDepth+4, false).TooDeep {
		return nil, limitError("", "maxDepth", "the request nests deeper than %d levels of arrays and objects.", MaxArgumentDepth)
	}
	if !json.Valid(d) {
		return nil, Errorf(CodeInvalidRequest, "", "the request is not one JSON value (it is malformed or has trailing data).")
	}
	switch d[0] {
	case '"':
		if !allowString {
			return nil, Errorf(CodeInvalidRequest, "", "the request is a JSON string holding a JSON string; want an object.")
		}
		var s string
		if err := json.Unmarshal(d, &s); err != nil {
			return nil, Errorf(CodeInvalidRequest, "", "the request string cannot be read: %v", err)
		}
		return parseRequest([]byte(s), false)
	case '{':
	default:
		return nil, Errorf(CodeInvalidRequest, "", "a request must be a JSON object (or a JSON string of one), got %s.", jsontext.Described(jsontext.Kind(d)))
	}
	m, ok := jsontext.Members(d)
	if !ok {
		return nil, Errorf(CodeInvalidRequest, "", "the request object cannot be read.")
	}
	if inner, ok := m["action_request"]; ok {
		if _, hasFn := m["function"]; !hasFn {
			im, ok := jsontext.Members(inner)
			if !ok {
				return nil, Errorf(CodeInvalidRequest, "", "\"action_request\" must be an object with function and arguments.")
			}
			return lionagiRequest(im)
		}
	}
	if fc, ok := m["functionCall"]; ok {
		fm, ok := jsontext.Members(fc)
		if !ok {
			return nil, Errorf(CodeInvalidRequest, "", "\"functionCall\" must be an object with name and args.")
		}
		return providerRequest(ProviderGemini, fm, "name", "args", jsontext.StringMember(fm, "id"), true)
	}
	switch jsontext.StringMember(m, "type") {
	case "function_call":
		id := jsontext.StringMember(m, "call_id")
		if id == "" {
			id = jsontext.StringMember(m, "id")
		}
		return providerRequest(ProviderOpenAIResponses, m, "name", "arguments", id, false)
	case "tool_use":
		return providerRequest(ProviderAnthropic, m, "name", "input", jsontext.StringMember(m, "id"), false)
	}
	if fn, ok := m["function"]; ok {
		if fm, isObj := jsontext.Members(fn); isObj {
			if t, hasType := m["type"]; hasType && jsontext.StringMember(m, "type") != "function" {
				return nil, Errorf(CodeInvalidRequest, "", "a tool call of type %s is not a function call.", string(t))
			}
			return providerRequest(ProviderOpenAIChat, fm, "name", "arguments", jsontext.StringMember(m, "id"), false)
		}
		return lionagiRequest(m)
	}
	return bareRequest(m)
}

// bareRequest reads what is left: Gemini's bare FunctionCall, an OpenAI
// custom tool call (as ParseToolCalls reads it: the arguments {"input":
// text}), else the refusal, naming a tool call that is not a function call
// (with its call id, so that the refusal can still be answered).
func bareRequest(m map[string]json.RawMessage) (*Request, error) {
	if _, hasName := m["name"]; hasName {
		if _, hasArgs := m["args"]; hasArgs || geminiCallOnly(m) {
			return providerRequest(ProviderGemini, m, "name", "args", jsontext.StringMember(m, "id"), true)
		}
	}
	if shape, fields, ok := callShapeOf(m); ok && shape.custom {
		return customRequest(shape, fields)
	}
	if t := jsontext.StringMember(m, "type"); t != "" {
		id := jsontext.StringMember(m, "call_id")
		if id == "" {
			id = jsontext.StringMember(m, "id")
		}
		e := Errorf(CodeInvalidRequest, otherToolName(m), "a tool call of type %q is not a function call: toolgate runs function tools (a provider's server-side tool call is the provider's).", t)
		e.CallID = id
		return nil, e
	}
	return nil, Errorf(CodeInvalidRequest, "", "the request has no function and arguments (accepted: {function, arguments}, OpenAI Chat and Responses tool calls, Anthropic tool_use, Gemini functionCall).")
}

// customRequest reads an OpenAI custom tool call the way ParseToolCalls
// does, so both paths agree: the arguments are {"input": "<its text>"}.
func customRequest(shape callShape, fields map[string]json.RawMessage) (*Request, error) {
	req, err := shapeCall(shape, fields)
	if err != nil {
		return nil, err
	}
	if req.argsErr != nil {
		return nil, req.argsErr
	}
	return req, nil
}

// geminiCallOnly reports whether every member of m is one of the members of
// Gemini's FunctionCall ({"name", "id"?, "args"?, ...}): the bare call as
// @google/genai's response.functionCalls gives it, which omits args for a
// function without parameters.
func geminiCallOnly(m map[string]json.RawMessage) bool {
	for k := range m {
		switch k {
		case "name", "id", "args", "partialArgs", "willContinue":
		default:
			return false
		}
	}
	return true
}

// otherToolName is the tool name of a call that is not a function call, for
// the error: OpenAI Chat's {"custom": {"name"}}, Responses' {"name"}.
func otherToolName(m map[string]json.RawMessage) string {
	if c, ok := jsontext.Members(m["custom"]); ok {
		return jsontext.StringMember(c, "name")
	}
	return jsontext.StringMember(m, "name")
}

// lionagiRequest reads {"function", "arguments", "id"?, "provider"?}.
func lionagiRequest(m map[string]json.RawMessage) (*Request, error) {
	provider, id, err := lionagiCallMembers(m)
	if err != nil {
		return nil, err
	}
	return providerRequest(provider, m, "function", "arguments", id, false)
}

// lionagiCallMembers reads the optional "provider" and "id" members of the
// LionAGI shape: provider one of the Provider names (LionAGI's when
// absent or null), id a string ("" when absent or null).
func lionagiCallMembers(m map[string]json.RawMessage) (provider, id string, err error) {
	provider = ProviderLionAGI
	if raw, ok := m["provider"]; ok && !jsontext.Absent(raw) {
		provider = jsontext.StringMember(m, "provider")
		if !knownProvider(provider) {
			return "", "", Errorf(CodeInvalidRequest, "", "\"provider\" of the request must be one of %q, %q, %q, %q or %q, got %s.",
				ProviderLionAGI, ProviderOpenAIChat, ProviderOpenAIResponses, ProviderAnthropic, ProviderGemini, clipText(string(raw), 80))
		}
	}
	if raw, ok := m["id"]; ok && !jsontext.Absent(raw) {
		if jsontext.Kind(raw) != "string" {
			return "", "", Errorf(CodeInvalidRequest, "", "\"id\" of the request must be a string, got %s.", jsontext.Described(jsontext.Kind(raw)))
		}
		id = jsontext.StringMember(m, "id")
	}
	return provider, id, nil
}

// knownProvider reports whether p is one of the Provider request shapes.
func knownProvider(p string) bool {
	switch p {
	case ProviderLionAGI, ProviderOpenAIChat, ProviderOpenAIResponses, ProviderAnthropic, ProviderGemini:
		return true
	}
	return false
}

// providerRequest reads the name and arguments members of one shape; its
// errors carry the call id.
func providerRequest(provider string, m map[string]json.RawMessage, nameKey, argsKey, id string, argsOptional bool) (*Request, error) {
	req, err := readProviderRequest(provider, m, nameKey, argsKey, id, argsOptional)
	if err != nil {
		return nil, WithCall(err, "", id)
	}
	return req, nil
}

// readProviderRequest is providerRequest without the call id on errors.
func readProviderRequest(provider string, m map[string]json.RawMessage, nameKey, argsKey, id string, argsOptional bool) (*Request, error) {
	raw, ok := m[nameKey]
	if !ok {
		return nil, Errorf(CodeInvalidRequest, "", "the request has no %q.", nameKey)
	}
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return nil, Errorf(CodeInvalidRequest, "", "%q of the request must be a string, got %s.", nameKey, jsontext.Described(jsontext.Kind(raw)))
	}
	if name == "" {
		return nil, Errorf(CodeInvalidRequest, "", "%q of the request is empty.", nameKey)
	}
	rawArgs, ok := m[argsKey]
	if !ok {
		if !argsOptional {
			return nil, Errorf(CodeInvalidRequest, name, "the request for %s has no %q.", name, argsKey)
		}
		rawArgs = json.RawMessage("{}")
	}
	args, err := providerArguments(provider, name, argsKey, rawArgs)
	if err != nil {
		return nil, err
	}
	return &Request{ID: id, Function: name, Arguments: args, Provider: provider}, nil
}

// providerArguments decodes the arguments member of a call by the rules of
// its provider: in the two OpenAI shapes a blank string is the empty
// object (OpenAI sends "" for a tool without parameters); in every
// provider shape but LionAGI's, a string whose text is not JSON is
// invalid-arguments naming the byte position (malformedArguments).
func providerArguments(provider, name, key string, raw json.RawMessage) (*Arguments, error) {
	if err := argumentsSize(name, raw); err != nil {
		return nil, err
	}
	if (provider == ProviderOpenAIChat || provider == ProviderOpenAIResponses) && blankString(raw) {
		raw = json.RawMessage("{}")
	}
	if provider != ProviderLionAGI {
		if err := malformedArguments(name, key, raw); err != nil {
			return nil, err
		}
	}
	return requestArguments(name, key, raw)
}

// blankString reports whether raw is a JSON string holding only white space
// ("" above all).
func blankString(raw json.RawMessage) bool {
	r := bytes.TrimSpace(raw)
	if len(r) < 2 || r[0] != '"' {
		return false
	}
	var s string
	return json.Unmarshal(r, &s) == nil && len(bytes.TrimSpace([]byte(s))) == 0
}

// requestArguments decodes arguments given as an object or as a JSON string
// holding one.
func requestArguments(name, key string, raw json.RawMessage) (*Arguments, error) {
	r := bytes.TrimSpace(raw)
	switch {
	case len(r) > 0 && r[0] == '{':
		return decodeArguments(name, r, true) // sliced from an envelope json.Valid accepted
	case len(r) > 0 && r[0] == '"':
		if _, msg, lone := loneSurrogate(r, fmt.Sprintf("%q of %s", key, name)); lone {
			return nil, &Error{Code: CodeInvalidArguments, Tool: name, Message: msg,
				Issues: []Issue{{Path: "", Keyword: "loneSurrogate", Message: clipText(msg, MaxIssueMessageBytes)}}}
		}
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, Errorf(CodeInvalidRequest, name, "%q of %s cannot be read: %v", key, name, err)
		}
		t := bytes.TrimSpace([]byte(s))
		if len(t) == 0 || t[0] != '{' {
			if len(t) > 0 && json.Valid(t) {
				return nil, Errorf(CodeInvalidRequest, name, "%q of %s must hold a JSON object, got %s.", key, name, jsontext.Described(jsontext.Kind(t)))
			}
			return nil, Errorf(CodeInvalidRequest, name, "%q of %s is a string that is not a JSON object.", key, name)
		}
		return DecodeArguments(name, []byte(s))
	}
	return nil, Errorf(CodeInvalidRequest, name, "%q of %s must be an object or a JSON string of one, got %s.", key, name, jsontext.Described(jsontext.Kind(r)))
}
