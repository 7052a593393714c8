package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// Protocol eras (docs/mcp-eras.md): a server speaks the 2026-07-28 revision
// (modern: stateless, every request carries its version and capabilities in
// _meta, server/discover, MRTR, subscriptions/listen) or a revision with the
// initialize handshake (legacy: 2025-11-25 and earlier). A connection finds
// its server's era itself (probe: server/discover), unless its config pins
// one (ServerConfig.ProtocolVersion); the verdict is cached per origin
// (eraCache).

// The protocol versions a config may pin (ServerConfig.ProtocolVersion).
const (
	// ProtocolModern is MCP 2026-07-28, the stateless revision.
	ProtocolModern = "2026-07-28"
	// ProtocolLegacy is MCP 2025-11-25, the newest revision with the
	// initialize handshake: the version toolgate asks for in initialize.
	ProtocolLegacy = "2025-11-25"
)

// eraTTL is how long an era verdict is kept for an origin: a server that
// upgrades (or downgrades) is probed again after it, or as soon as a request
// fails in a way that says the cached era is wrong (Pool.run).
var eraTTL = 30 * time.Minute

// eraVerdict is one origin's cached era.
type eraVerdict struct {
	modern bool
	at     time.Time
}

// eraCache holds the era of each origin a pool has probed, for eraTTL
// (docs/mcp-eras.md, "What is cached"). It is safe for concurrent use.
type eraCache struct {
	mu       sync.Mutex
	byOrigin map[string]eraVerdict
}

// get returns origin's cached era and whether one is fresh at now.
func (c *eraCache) get(origin string, now time.Time) (modern, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, found := c.byOrigin[origin]
	if !found || now.Sub(v.at) >= eraTTL {
		return false, false
	}
	return v.modern, true
}

// set records origin's era as seen at now.
func (c *eraCache) set(origin string, modern bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byOrigin == nil {
		c.byOrigin = map[string]eraVerdict{}
	}
	c.byOrigin[origin] = eraVerdict{modern: modern, at: now}
}

// forget drops origin's verdict: the next connection probes again.
func (c *eraCache) forget(origin string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.byOrigin, origin)
}

// probeVerdict is what one server/discover probe says of a server's era.
type probeVerdict int

const (
	// probeLegacy: no modern evidence; the client falls back to initialize.
	probeIsLegacy probeVerdict = iota
	// probeModern: the server speaks 2026-07-28.
	probeIsModern
	// probeFailed: not era evidence (an outage, an auth wall, a server
	// failure): the connection fails with the probe's error.
	probeFailed
)

// The JSON-RPC error codes of the 2026-07-28 revision (docs/mcp-eras.md,
// "Errors").
const (
	rpcHeaderMismatch     = -32020 // the HTTP headers disagree with the body, or one is missing
	rpcMissingCapability  = -32021 // the request needs a client capability the client did not declare
	rpcUnsupportedVersion = -32022 // the server does not speak the request's protocol version
	rpcMethodNotFound     = -32601
)

// classifyProbeAnswer is the verdict of a probe answered with a JSON-RPC
// result or error, at any HTTP status below 500 other than 401 and 403
// (which are not era evidence: the caller fails on them). The rules
// (docs/mcp-eras.md, "How the era is found"): a DiscoverResult whose
// supportedVersions lists 2026-07-28 is modern; -32022 whose
// data.supported lists 2026-07-28 is modern too (the server is modern and
// our version is one it names); any other result or error is legacy, the
// conservative default (-32601 included: a modern server must implement
// server/discover).
func classifyProbeAnswer(result json.RawMessage, rpcErr *jsonrpcErrorObj) probeVerdict {
	if rpcErr != nil {
		if rpcErr.Code == rpcUnsupportedVersion && slices.Contains(supportedList(rpcErr.Data), ProtocolModern) {
			return probeIsModern
		}
		return probeIsLegacy
	}
	var r struct {
		Supported []string `json:"supportedVersions"`
	}
	if jsontext.Kind(result) != jsontext.Object || json.Unmarshal(result, &r) != nil {
		return probeIsLegacy
	}
	if slices.Contains(r.Supported, ProtocolModern) {
		return probeIsModern
	}
	return probeIsLegacy
}

// supportedList reads data.supported of an UnsupportedProtocolVersion
// error: the versions the server speaks (nil when absent or malformed).
func supportedList(data json.RawMessage) []string {
	var d struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	return d.Supported
}

// errStaleEra is a connection whose cached era turned out wrong: connect
// forgets the verdict and starts again with a probe.
var errStaleEra = errors.New("the server's cached protocol era is stale")

// chooseEra decides the era of connection c of entry e: legacy for the SSE
// transport or a config pinned to ProtocolLegacy; modern for one pinned to
// ProtocolModern; else the pool's cached verdict for the URL's origin, or
// a probe (session.probe) whose verdict is cached. For a modern server
// found by the probe it also returns its DiscoverResult (capabilities).
// The probe's failure (no era evidence) is the connection's.
func (p *Pool) chooseEra(ctx context.Context, c *conn, e *entry) (bool, json.RawMessage, error) {
	cfg := e.cfg
	switch {
	case cfg.Transport == TransportSSE || cfg.ProtocolVersion == ProtocolLegacy:
		return false, nil, nil
	case cfg.ProtocolVersion == ProtocolModern:
		return true, nil, nil
	}
	origin := originOf(cfg.URL)
	if modern, ok := p.eras.get(origin, time.Now()); ok {
		c.eraCached = true
		return modern, nil, nil
	}
	p.stats.eraProbes.Add(1)
	out := c.sess.probe(ctx)
	switch out.verdict {
	case probeFailed:
		return false, nil, out.err
	case probeIsModern:
		p.eras.set(origin, true, time.Now())
		return true, out.discover, nil
	}
	p.eras.set(origin, false, time.Now())
	return false, nil, nil
}

// legacyRefused reports whether an initialize (err, or the JSON-RPC error
// it was answered) says the server no longer speaks the legacy wire: a
// JSON-RPC error, or an HTTP 400, 404 or 405.
func legacyRefused(err error, rpcErr *jsonrpcErrorObj) bool {
	if rpcErr != nil {
		return true
	}
	var ce *core.Error
	if !errors.As(err, &ce) {
		return false
	}
	return notServedStatus(ce)
}

// notServedStatus reports whether ce is an HTTP 400, 404 or 405 answer:
// what a server that does not serve a request's revision answers.
func notServedStatus(ce *core.Error) bool {
	t := ce.Transport
	return t != nil && (t.HTTPStatus == 400 || t.HTTPStatus == 404 || t.HTTPStatus == 405)
}

// modernRefused reports whether the failure of a modern request says the
// server is not modern after all (docs/mcp-eras.md, "What is cached"): an
// HTTP 400, 404 or 405 whose body is not one of the revision's own errors
// (-32020, -32021, -32022, or -32601 for a method it does not serve).
func modernRefused(err error) bool {
	var ce *core.Error
	if !errors.As(err, &ce) || !notServedStatus(ce) {
		return false
	}
	if ce.Transport.RPCCode == nil {
		return true
	}
	switch *ce.Transport.RPCCode {
	case rpcHeaderMismatch, rpcMissingCapability, rpcUnsupportedVersion, rpcMethodNotFound:
		return false
	}
	return true
}

// modernErrorText says what one of the 2026-07-28 revision's error codes
// means for the user ("" for any other code), naming what the server sent
// in data (redacted, cut): the capabilities it needs, the versions it
// speaks.
func modernErrorText(cfg *ServerConfig, rpc *jsonrpcErrorObj) string {
	switch rpc.Code {
	case rpcHeaderMismatch:
		return " (HeaderMismatch: the server found the request's MCP headers missing or different from its body; " +
			"if a proxy between toolgate and the server rewrites headers, let Mcp-Method, Mcp-Name and Mcp-Param-* through)"
	case rpcMissingCapability:
		var d struct {
			Required json.RawMessage `json:"requiredCapabilities"`
		}
		_ = json.Unmarshal(rpc.Data, &d)
		need := "a client capability"
		if len(d.Required) > 0 {
			need = "the client capabilities " + cfg.quote(string(compactJSON(d.Required)), 200)
		}
		return " (MissingRequiredClientCapability: the server needs " + need +
			"; give the matching registration hook: elicitation, elicitationUrl, sampling (with samplingTools for tools) or roots)"
	case rpcUnsupportedVersion:
		speaks := "did not say which versions it speaks"
		if supported := supportedList(rpc.Data); len(supported) > 0 {
			b, _ := json.Marshal(supported) // strings: always marshals
			speaks = "speaks " + cfg.quote(string(b), 200)
		}
		return " (UnsupportedProtocolVersion: the server " + speaks +
			"; pin a version it speaks with the config's protocolVersion, or leave it out to let toolgate find the era)"
	}
	return ""
}
