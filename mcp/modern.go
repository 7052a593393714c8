package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"strconv"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/internal/wire"
)

// The 2026-07-28 wire (docs/mcp-eras.md, "The modern wire"): no handshake
// and no session; every request carries the protocol version, the client's
// capabilities and its identity in params._meta, and over HTTP the headers
// MCP-Protocol-Version, Mcp-Method and, for tools/call, resources/read and
// prompts/get, Mcp-Name (plus the Mcp-Param-* headers a tool's
// x-mcp-header annotations ask for: docs/mcp-headers.md). A broken answer
// stream is never resumed: the request is sent again under a new id.

// The _meta keys of the 2026-07-28 revision.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// maxReissues is how often a modern request whose answer stream broke
// before its answer is sent again (under a new id each time).
const maxReissues = 1

// errStreamBroken is a modern request's answer stream that ended before
// its answer: the request is sent again (call).
var errStreamBroken = errors.New("the server's answer stream ended before its answer")

// modernMeta is the _meta of every modern request of a session whose
// client capabilities are hooks: the protocol version, the capabilities
// (a member per hook given, as the 2026-07-28 schema spells them) and
// toolgate's name and version.
func modernMeta(hooks *ClientHooks) json.RawMessage {
	caps := map[string]any{"extensions": map[string]any{extTasks: map[string]any{}}} // toolgate runs tasks: task_modern.go
	hooks.each(func(name string, _ *Hook) {
		switch name {
		case "roots":
			caps["roots"] = map[string]any{}
		case "sampling":
			caps["sampling"] = map[string]any{}
		case "elicitation":
			caps["elicitation"] = map[string]any{"form": map[string]any{}}
		}
	})
	b, _ := json.Marshal(map[string]any{ // strings and maps only: always marshals
		metaProtocolVersion:    ProtocolModern,
		metaClientInfo:         map[string]any{"name": "toolgate", "version": toolgate.Version},
		metaClientCapabilities: caps,
	})
	return b
}

// withMeta returns params (an object, or nil for none) as JSON with the
// session's _meta merged into params._meta: the protocol's keys win over
// any of the same name the caller put there (a progress token stays). The
// other members keep their bytes: params is encoded once.
func withMeta(params any, meta json.RawMessage) (json.RawMessage, error) {
	b := []byte("{}")
	if params != nil {
		var err error
		if b, err = json.Marshal(params); err != nil {
			return nil, err
		}
		if jsontext.Kind(b) != jsontext.Object {
			return nil, errors.New("request params must be a JSON object")
		}
	}
	if old, ok := jsontext.Lookup(b, "_meta"); ok && jsontext.Kind(old) == jsontext.Object {
		meta = mergeMembers(old, meta)
	}
	out, ok := jsontext.Replace(b, "_meta", meta)
	if !ok {
		return nil, errors.New("request params are not one JSON object")
	}
	return out, nil
}

// mergeMembers is the object of base's members and over's, over's winning
// for a key both have (both are JSON objects).
func mergeMembers(base, over json.RawMessage) json.RawMessage {
	b, _ := jsontext.Split(base)
	o, _ := jsontext.Split(over)
	own := make(map[string]bool, len(o))
	for _, m := range o {
		own[m.Key] = true
	}
	kept := make([]jsontext.Member, 0, len(b)+len(o))
	for _, m := range b {
		if !own[m.Key] {
			kept = append(kept, m)
		}
	}
	return jsontext.WriteObject(append(kept, o...))
}

// requestHeaders are the standard headers of one modern request of
// method with params: Mcp-Method, and Mcp-Name from params.name (tools/call,
// prompts/get), params.uri (resources/read) or params.taskId (tasks/get,
// tasks/update, tasks/cancel), encoded when it is not a
// plain header value (docs/mcp-headers.md).
func requestHeaders(method string, params json.RawMessage) [][2]string {
	h := [][2]string{{"Mcp-Method", method}}
	key := ""
	switch method {
	case "tools/call", "prompts/get":
		key = "name"
	case "resources/read":
		key = "uri"
	case "tasks/get", "tasks/update", "tasks/cancel":
		key = "taskId" // the extension's routing header
	}
	if key == "" {
		return h
	}
	fields, _ := jsontext.Members(params)
	var name string
	if v, ok := fields[key]; ok && json.Unmarshal(v, &name) == nil {
		h = append(h, [2]string{"Mcp-Name", encodeHeaderValue(name)})
	}
	return h
}

// paramHeaderSet carries the Mcp-Param-* headers of one tools/call from
// the proxy (which read its tool's x-mcp-header annotations) to the
// session, in the request's context.
type paramHeaderSet struct {
	headers [][2]string
}

// probeOutcome is what the era probe found: the verdict and, for a
// modern server, its DiscoverResult.
type probeOutcome struct {
	verdict  probeVerdict
	discover json.RawMessage
	err      error // the probe's failure when verdict is probeFailed
}

// probe sends server/discover at 2026-07-28 and classifies the answer
// (docs/mcp-eras.md, "How the era is found"): a JSON-RPC answer by
// classifyProbeAnswer; an HTTP 4xx without a JSON-RPC error (other than
// 401 and 403, which the auth flow handles and otherwise reports), an HTML
// or other non-JSON answer, or a request a browser refused without a
// readable cause (CORS) is legacy; an HTTP 5xx, a timeout or any other
// network failure is no evidence: the probe fails with it.
func (s *session) probe(ctx context.Context) probeOutcome {
	id := json.RawMessage(strconv.Quote("discover-" + strconv.FormatInt(s.nextID.Add(1), 10)))
	params, _ := withMeta(nil, s.meta)
	body, _ := json.Marshal(jsonrpcMessage{JSONRPC: "2.0", ID: id, Method: "server/discover", Params: params})
	x := &exchange{key: idKey(id), shown: string(id), headers: append(requestHeaders("server/discover", params),
		[2]string{"Mcp-Protocol-Version", ProtocolModern})}
	s.g.pending.add(x.key)
	defer s.g.pending.remove(x.key)
	ctx = withValue(ctx, x)
	resp, err := s.post(ctx, body)
	if err != nil {
		if errors.Is(err, wire.ErrOpaque) || errors.Is(err, errNotMCPAnswer) {
			return probeOutcome{verdict: probeIsLegacy}
		}
		return probeOutcome{verdict: probeFailed, err: err}
	}
	defer resp.Body.Close()
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == 401 || resp.StatusCode == 403 || resp.StatusCode >= 500:
		a := answerOfStatus(resp, wire.MethodPost, s.target())
		return probeOutcome{verdict: probeFailed, err: s.httpFailure(ctx, a, "server/discover", "")}
	case resp.StatusCode >= 300:
		a := answerOfStatus(resp, wire.MethodPost, s.target())
		if a.rpc == nil {
			return probeOutcome{verdict: probeIsLegacy}
		}
		return probeOutcome{verdict: classifyProbeAnswer(nil, a.rpc)}
	case mediaType == "text/event-stream":
		m, err := s.readAnswer(ctx, x, resp.Body)
		if err != nil {
			return probeOutcome{verdict: probeFailed, err: err}
		}
		return probeOutcome{verdict: classifyProbeAnswer(m.Result, m.Error), discover: m.Result}
	case mediaType != "application/json":
		return probeOutcome{verdict: probeIsLegacy}
	}
	var m jsonrpcMessage
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		var ce *core.Error
		if errors.As(err, &ce) {
			return probeOutcome{verdict: probeFailed, err: ce}
		}
		return probeOutcome{verdict: probeIsLegacy} // not JSON-RPC: no modern server answers so
	}
	if !m.isAnswer() {
		return probeOutcome{verdict: probeIsLegacy}
	}
	return probeOutcome{verdict: classifyProbeAnswer(m.Result, m.Error), discover: m.Result}
}

// setModern makes the session speak the 2026-07-28 wire from now on.
func (s *session) setModern() {
	s.mu.Lock()
	s.modern = true
	s.version = ProtocolModern
	s.mu.Unlock()
}

// isModern reports whether the session speaks the 2026-07-28 wire.
func (s *session) isModern() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modern
}

// resultType reads a result's resultType: "complete" when absent (a legacy
// server's result, docs/mcp-eras.md), "" when it is not a string.
func resultType(raw json.RawMessage) string {
	fields, ok := jsontext.Members(raw)
	if !ok {
		return "complete"
	}
	v, present := fields["resultType"]
	if !present {
		return "complete"
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// metaServerInfo is the _meta key a modern server names itself under in
// each result.
const metaServerInfo = "io.modelcontextprotocol/serverInfo"

// stripEnvelope returns a result object without the members the 2026-07-28
// wire adds to every result, so a tool's result reads the same from a
// server of either era: resultType, and _meta's serverInfo (_meta itself
// when nothing else is in it). Everything else keeps its bytes and order;
// raw that is not an object is returned as it is.
func stripEnvelope(raw json.RawMessage) json.RawMessage {
	ms, ok := jsontext.Split(raw)
	if !ok || jsontext.Kind(raw) != jsontext.Object {
		return raw
	}
	kept := ms[:0:0]
	for _, m := range ms {
		switch m.Key {
		case "resultType":
			continue
		case "_meta":
			inner, ok := jsontext.Split(m.Value)
			if !ok || jsontext.Kind(m.Value) != jsontext.Object {
				break
			}
			rest := inner[:0:0]
			for _, im := range inner {
				if im.Key != metaServerInfo {
					rest = append(rest, im)
				}
			}
			if len(rest) == 0 {
				continue
			}
			m.Value = jsontext.WriteObject(rest)
		}
		kept = append(kept, m)
	}
	return jsontext.WriteObject(kept)
}

// protocolVersion is the version the session speaks: ProtocolModern, or
// the legacy version initialize agreed ("" before either).
func (s *session) protocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}
