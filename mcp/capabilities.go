package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
)

// Client capabilities as hooks (docs/security.md, "Client capabilities"):
// the application answers the requests an MCP server sends it mid-session —
// roots/list, sampling/createMessage, elicitation/create — with functions of
// its own. A capability is declared in initialize only when its hook is
// given; a server request for any other method is answered -32601.

// HookFunc answers one server request: it gets the request's params as JSON
// (null when the server sent none) and returns the result as JSON. ctx ends
// when the connection closes or TimeoutMs passes. Its error is never shown
// to the server: the answer is a JSON-RPC error naming the hook only.
type HookFunc func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)

// Hook is one application function behind a client capability.
type Hook struct {
	// ID identifies the function for the connection pool: registrations
	// share a connection only when their hooks have the same IDs (default
	// "": this *Hook itself, so no other Hook matches it). jsbridge/mcpops
	// sets "js:" and the host function's id.
	ID string
	// Func answers the request. A nil Func is refused at registration.
	Func HookFunc

	static json.RawMessage // RootList's answer, checked once
	list   []Root          // RootList's roots, checked at registration
}

// Root is one root of the client's roots/list answer: a file:// URI
// and an optional name.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// RootList returns the Hook of a fixed roots list: roots/list is answered
// with {"roots": roots} without calling anything. The roots are checked at
// registration (RegisterServer refuses with unsupported-type a root whose
// uri is not a file:// URI).
func RootList(roots []Root) *Hook {
	list := append([]Root{}, roots...)
	b, _ := json.Marshal(struct {
		Roots []Root `json:"roots"`
	}{list}) // strings only: always marshals
	sum := sha256.Sum256(b)
	return &Hook{ID: "roots:" + hex.EncodeToString(sum[:]), static: b, list: list}
}

// ClientHooks are the client capabilities of a registration
// (RegisterOptions.Hooks, LoadOptions.Hooks). A nil *ClientHooks, or one
// whose fields are all nil, declares no capability.
type ClientHooks struct {
	// Roots answers roots/list: RootList's fixed list, or a function
	// returning a JSON array of {uri, name?} (each uri file://), which is
	// answered as {"roots": [...]}. Declares {"roots": {"listChanged": false}}.
	Roots *Hook
	// Sampling answers sampling/createMessage with a CreateMessageResult
	// ({role, content, model, stopReason?}), checked before it is sent
	// (samplingtools.go). Declares {"sampling": {}}.
	Sampling *Hook
	// SamplingTools declares {"sampling": {"tools": {}}} beside Sampling
	// (default false): the sampling hook handles a request's tools and
	// toolChoice, and may answer with tool_use blocks. Without it a request
	// carrying tools or toolChoice is answered -32602, as MCP asks. Refused
	// at registration without Sampling.
	SamplingTools bool
	// Elicitation answers form-mode elicitation/create with an ElicitResult
	// ({action: "accept"|"decline"|"cancel", content?}); the requested
	// schema's defaults fill the fields an accept leaves out (SEP-1034),
	// and the content is checked against the schema. Declares
	// {"elicitation": {"form": {}}}.
	Elicitation *Hook
	// ElicitationURL answers URL-mode elicitation/create, and the
	// elicitations of a URLElicitationRequiredError (-32042) a 2025-11-25
	// server answers tools/call with (elicitation_url.go): it gets {mode,
	// url, message, elicitationId?} once the URL passed the URL check, and
	// returns {action} (no content). Declares {"elicitation": {"url": {}}}
	// (with "form" when Elicitation is given too). Without it URL mode is
	// answered -32602.
	ElicitationURL *Hook
	// ElicitationComplete is told of each notifications/elicitation/complete
	// naming a URL elicitation this connection accepted, once: its Func
	// gets {"elicitationId": id} and its result is ignored. Declares
	// nothing.
	ElicitationComplete *Hook
}

// each calls f with the name and hook of each hook given, in declaration
// order.
func (h *ClientHooks) each(f func(name string, hook *Hook)) {
	if h == nil {
		return
	}
	for _, x := range []struct {
		name string
		hook *Hook
	}{{"roots", h.Roots}, {"sampling", h.Sampling}, {"elicitation", h.Elicitation},
		{"elicitationUrl", h.ElicitationURL}, {"onElicitationComplete", h.ElicitationComplete}} {
		if x.hook != nil {
			f(x.name, x.hook)
		}
	}
}

// any reports whether at least one hook is given.
func (h *ClientHooks) any() bool {
	found := false
	h.each(func(string, *Hook) { found = true })
	return found
}

// capabilities is initialize's "capabilities" object: a member per hook
// given, as the 2025-11-25 schema spells it (a server negotiating an older
// revision reads "elicitation" as present and ignores "form" and "url").
func (h *ClientHooks) capabilities() map[string]any {
	out := h.sharedCapabilities()
	if h != nil && h.Roots != nil {
		out["roots"] = map[string]any{"listChanged": false}
	}
	return out
}

// sharedCapabilities are the capabilities both eras spell alike: sampling
// (with tools when SamplingTools) and elicitation (form, url or both).
func (h *ClientHooks) sharedCapabilities() map[string]any {
	out := map[string]any{}
	if h == nil {
		return out
	}
	if h.Sampling != nil {
		s := map[string]any{}
		if h.SamplingTools {
			s["tools"] = map[string]any{}
		}
		out["sampling"] = s
	}
	if h.Elicitation != nil || h.ElicitationURL != nil {
		modes := map[string]any{}
		if h.Elicitation != nil {
			modes["form"] = map[string]any{}
		}
		if h.ElicitationURL != nil {
			modes["url"] = map[string]any{}
		}
		out["elicitation"] = modes
	}
	return out
}

// key is the part of a pool key the hooks make: their kinds and ids.
func (h *ClientHooks) key() string {
	var b strings.Builder
	h.each(func(name string, hook *Hook) {
		id := hook.ID
		if id == "" {
			id = fmt.Sprintf("go:%p", hook)
		}
		b.WriteString(name + "=" + strconv.Quote(id) + ";")
	})
	if h != nil && h.SamplingTools {
		b.WriteString("samplingTools;")
	}
	return b.String()
}

// forMethod is the hook that answers method, or nil.
func (h *ClientHooks) forMethod(method string) (*Hook, string) {
	if h == nil {
		return nil, ""
	}
	switch {
	case method == "roots/list" && h.Roots != nil:
		return h.Roots, "roots"
	case method == "sampling/createMessage" && h.Sampling != nil:
		return h.Sampling, "sampling"
	case method == "elicitation/create" && h.Elicitation != nil:
		return h.Elicitation, "elicitation" // URL mode: answerHook picks ElicitationURL
	case method == "elicitation/create" && h.ElicitationURL != nil:
		return h.ElicitationURL, "elicitation"
	}
	return nil, ""
}

// check refuses with unsupported-type, naming the server and the option, a
// hook without a function, a fixed root whose uri is not file://, and
// SamplingTools without Sampling.
func (h *ClientHooks) check(cfg *ServerConfig) error {
	var err error
	if h != nil && h.SamplingTools && h.Sampling == nil {
		return serverError(core.CodeUnsupportedType, cfg.Name, cfg, "option samplingTools needs the sampling hook")
	}
	h.each(func(name string, hook *Hook) {
		if err != nil {
			return
		}
		if hook.static == nil && hook.Func == nil {
			err = serverError(core.CodeUnsupportedType, cfg.Name, cfg, "option %s has no function", name)
			return
		}
		if msg := checkRoots(hook.list); hook.static != nil && msg != "" {
			err = serverError(core.CodeUnsupportedType, cfg.Name, cfg, "option roots: %s", msg)
		}
	})
	return err
}

// checkRoots returns what is wrong with roots ("" when nothing): each uri
// must be a file:// URI (MCP's rule for roots).
func checkRoots(roots []Root) string {
	for i, r := range roots {
		if !strings.HasPrefix(strings.ToLower(r.URI), "file://") {
			return fmt.Sprintf("roots[%d].uri must be a file:// URI, got %s", i, strconv.QuoteToASCII(truncate(r.URI, 80)))
		}
	}
	return ""
}
