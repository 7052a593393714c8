package mcp

import (
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// Sampling (sampling/createMessage), with tools since MCP 2025-11-25 (and
// on the 2026-07-28 wire, as an input request): a request may offer the
// model tools and a toolChoice, and the answer may be tool_use blocks with
// stopReason "toolUse". A client may receive such a request only when it
// declared sampling.tools (ClientHooks.SamplingTools); the request's tools
// and toolChoice reach the hook unchanged, and its answer is checked against
// them before it is sent.

// maxSamplingTools bounds the tools one sampling request may offer.
const maxSamplingTools = 128

// samplingOffer is what a sampling request offered the model: its tools'
// names and the toolChoice mode ("" when no tools were offered).
type samplingOffer struct {
	names map[string]bool
	mode  string
}

// samplingRequest checks sampling/createMessage's params before the hook
// runs: tools or toolChoice without SamplingTools (declared) are -32602, as
// MCP asks; tools must be an array of at most maxSamplingTools objects with
// a non-empty string name, toolChoice an object whose mode (when given) is
// "auto", "required" or "none"; and the messages must keep MCP's tool rules
// (tool results alone in their message, every tool_use of an assistant
// message answered by the next message's tool_result). It returns the
// offer (nil when the request offers no tools).
func samplingRequest(params json.RawMessage, declared bool) (*samplingOffer, *rpcFailure) {
	fields, _ := jsontext.Members(params)
	tools, hasTools := fields["tools"]
	choice, hasChoice := fields["toolChoice"]
	if f := checkToolMessages(fields["messages"]); f != nil {
		return nil, f
	}
	if !hasTools && !hasChoice {
		return nil, nil
	}
	if !declared {
		return nil, invalidParams("Client does not support sampling with tools (the registration did not set samplingTools)")
	}
	offer := &samplingOffer{names: map[string]bool{}, mode: "auto"}
	if hasTools {
		var list []struct {
			Name *string `json:"name"`
		}
		if jsontext.Kind(tools) != jsontext.Array || json.Unmarshal(tools, &list) != nil {
			return nil, invalidParams("invalid sampling request: tools must be an array of tools {name, inputSchema, ...}")
		}
		if len(list) > maxSamplingTools {
			return nil, invalidParams("invalid sampling request: more than %d tools", maxSamplingTools)
		}
		for i, t := range list {
			if t.Name == nil || *t.Name == "" {
				return nil, invalidParams("invalid sampling request: tools[%d].name must be a non-empty string", i)
			}
			offer.names[*t.Name] = true
		}
	}
	if hasChoice {
		var c struct {
			Mode *string `json:"mode"`
		}
		if jsontext.Kind(choice) != jsontext.Object || json.Unmarshal(choice, &c) != nil {
			return nil, invalidParams(`invalid sampling request: toolChoice must be an object {mode?: "auto" | "required" | "none"}`)
		}
		if c.Mode != nil {
			switch *c.Mode {
			case "auto", "required", "none":
				offer.mode = *c.Mode
			default:
				return nil, invalidParams(`invalid sampling request: toolChoice.mode must be "auto", "required" or "none"`)
			}
		}
	}
	return offer, nil
}

// samplingBlock is the part of a sampling content block the checks read.
type samplingBlock struct {
	Type      string          `json:"type"`
	ID        *string         `json:"id"`
	Name      *string         `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID *string         `json:"toolUseId"`
}

// blocksOf decodes a message's content, one block or an array of them
// (nil when it is neither).
func blocksOf(content json.RawMessage) []samplingBlock {
	switch jsontext.Kind(content) {
	case jsontext.Object:
		var b samplingBlock
		if json.Unmarshal(content, &b) != nil {
			return nil
		}
		return []samplingBlock{b}
	case jsontext.Array:
		var list []samplingBlock
		if json.Unmarshal(content, &list) != nil {
			return nil
		}
		return list
	}
	return nil
}

// checkToolMessages applies MCP's message rules of sampling with tools to
// the request's messages (anything not an array of messages is left to the
// hook): a message holding a tool_result holds nothing else, and the message
// after an assistant message with tool_use blocks answers each of their ids.
// Both are -32602, in the spec's words.
func checkToolMessages(raw json.RawMessage) *rpcFailure {
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if jsontext.Kind(raw) != jsontext.Array || json.Unmarshal(raw, &msgs) != nil {
		return nil
	}
	var open map[string]bool // the tool_use ids the previous message left open
	for _, m := range msgs {
		blocks := blocksOf(m.Content)
		results := 0
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results++
				if open != nil && b.ToolUseID != nil {
					delete(open, *b.ToolUseID)
				}
			}
		}
		if results > 0 && results != len(blocks) {
			return invalidParams("Tool results mixed with other content")
		}
		if len(open) > 0 {
			return invalidParams("Tool result missing in request")
		}
		open = nil
		if m.Role == "assistant" {
			for _, b := range blocks {
				if b.Type == "tool_use" && b.ID != nil {
					if open == nil {
						open = map[string]bool{}
					}
					open[*b.ID] = true
				}
			}
		}
	}
	return nil
}

// samplingAnswer checks the sampling hook's CreateMessageResult: an object
// with a string model, role "user" or "assistant", and content an object
// with a string type (or an array of such). Against offer (nil: no tools
// offered): a tool_use block must be the assistant's, name a tool the
// request offered (not under toolChoice "none"), with a non-empty string id
// and an object input; a tool_result block is the server's to send, never
// an answer's; stopReason "toolUse" needs a tool_use block. It is sent as
// the hook gave it.
func samplingAnswer(raw json.RawMessage, offer *samplingOffer) (json.RawMessage, *rpcFailure) {
	var r struct {
		Model      *string         `json:"model"`
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		StopReason *string         `json:"stopReason"`
	}
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &r) != nil {
		return nil, invalidParams("invalid sampling result: the client's hook returned %s, not {role, content, model}", jsontext.Kind(raw))
	}
	switch {
	case r.Model == nil:
		return nil, invalidParams("invalid sampling result: model must be a string")
	case r.Role != "user" && r.Role != "assistant":
		return nil, invalidParams(`invalid sampling result: role must be "user" or "assistant"`)
	case !contentBlocks(r.Content):
		return nil, invalidParams("invalid sampling result: content must be a content block {type, ...} or an array of them")
	}
	uses := 0
	for i, b := range blocksOf(r.Content) {
		switch b.Type {
		case "tool_result":
			return nil, invalidParams("invalid sampling result: content[%d] is a tool_result, which only the server's messages carry", i)
		case "tool_use":
			if f := checkToolUse(i, b, r.Role, offer); f != nil {
				return nil, f
			}
			uses++
		}
	}
	if r.StopReason != nil && *r.StopReason == "toolUse" && uses == 0 {
		return nil, invalidParams(`invalid sampling result: stopReason "toolUse" needs at least one tool_use block`)
	}
	return raw, nil
}

// checkToolUse checks tool_use block i of an answer of role against offer.
func checkToolUse(i int, b samplingBlock, role string, offer *samplingOffer) *rpcFailure {
	switch {
	case offer == nil || len(offer.names) == 0:
		return invalidParams("invalid sampling result: content[%d] is a tool_use, but the request offered no tools", i)
	case offer.mode == "none":
		return invalidParams(`invalid sampling result: content[%d] is a tool_use, but the request's toolChoice is "none"`, i)
	case role != "assistant":
		return invalidParams(`invalid sampling result: a tool_use block needs role "assistant"`)
	case b.ID == nil || *b.ID == "":
		return invalidParams("invalid sampling result: content[%d].id must be a non-empty string", i)
	case b.Name == nil || !offer.names[*b.Name]:
		return invalidParams("invalid sampling result: content[%d].name must name one of the request's tools", i)
	case jsontext.Kind(b.Input) != jsontext.Object:
		return invalidParams("invalid sampling result: content[%d].input must be an object", i)
	}
	return nil
}

// contentBlocks reports whether raw is an object with a string "type", or a
// non-empty array of them.
func contentBlocks(raw json.RawMessage) bool {
	var one struct {
		Type *string `json:"type"`
	}
	switch jsontext.Kind(raw) {
	case jsontext.Object:
		return json.Unmarshal(raw, &one) == nil && one.Type != nil
	case jsontext.Array:
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
			return false
		}
		for _, item := range list {
			if !contentBlocks(item) || jsontext.Kind(item) != jsontext.Object {
				return false
			}
		}
		return true
	}
	return false
}
