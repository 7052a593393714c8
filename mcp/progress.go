package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
)

// Progress of a tool call (docs/security.md, "Notifications"): when a hook
// is given (RegisterOptions.OnProgress, LoadOptions.OnProgress, or per call
// WithProgress), the tools/call request carries _meta.progressToken, a
// fresh random token per call that names nothing else, and each
// notifications/progress with that token on the connection reaches the
// hooks, in the order the server sent them, until the call ends; none after.
// A notification with another token (or after the end, or past
// maxProgressPerCall) is dropped and counted, as is one whose progress is
// not a number.

// maxProgressPerCall is the most progress notifications one call delivers.
var maxProgressPerCall = 10000

// maxProgressMessage is the most bytes of a progress message passed on
// (redacted, then cut).
const maxProgressMessage = 500

// ProgressEvent is one progress notification of a tool call, as a hook
// receives it (JS: the onProgress event).
type ProgressEvent struct {
	// Server is the server's name.
	Server string `json:"server"`
	// Tool is the tool's name on the server.
	Tool string `json:"tool"`
	// Name is the tool's registered name.
	Name string `json:"name"`
	// Progress is the server's progress value.
	Progress float64 `json:"progress"`
	// Total is the server's total, when it sent one.
	Total *float64 `json:"total,omitempty"`
	// Message is the server's message, when it sent one: redacted and cut
	// to 500 bytes.
	Message string `json:"message,omitempty"`
}

// ProgressFunc receives progress events. It must not block: the stream
// the notification came on waits for it.
type ProgressFunc func(ProgressEvent)

// WithProgress returns ctx carrying f: a tool call of an MCP proxy made
// under it delivers its progress to f as well as to the registration's
// hook. A nil f adds nothing.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	if f == nil {
		return ctx
	}
	return withValue(ctx, &f)
}

// progressSink is one call's progress: its hooks, what it has delivered,
// and whether the call ended. A delivery and the end exclude each other.
type progressSink struct {
	mu    sync.Mutex
	base  ProgressEvent // server, tool and name
	hooks []ProgressFunc
	n     int
	ended bool
}

// fire passes ev to the hooks unless the call ended or delivered its
// maximum, and reports whether it did.
func (s *progressSink) fire(ev ProgressEvent) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.n >= maxProgressPerCall {
		return false
	}
	s.n++
	for _, h := range s.hooks {
		h(ev)
	}
	return true
}

// end stops every later delivery; it returns once a delivery in progress
// has finished.
func (s *progressSink) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
}

// progressTokens are the calls of one connection waiting for progress, by
// the id key (idKey) of their token.
type progressTokens struct {
	mu    sync.Mutex
	calls map[string]*progressSink
}

// start registers a call's sink under a fresh token and returns the token
// and the function that ends the call's progress.
func (t *progressTokens) start(s *progressSink) (string, func()) {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	token := "toolgate-" + hex.EncodeToString(b[:])
	key := idKey(json.RawMessage(`"` + token + `"`))
	t.mu.Lock()
	if t.calls == nil {
		t.calls = map[string]*progressSink{}
	}
	t.calls[key] = s
	t.mu.Unlock()
	return token, func() {
		s.end()
		t.mu.Lock()
		delete(t.calls, key)
		t.mu.Unlock()
	}
}

// deliver routes the params of one notifications/progress to the call its
// token names, counting what it drops.
func (t *progressTokens) deliver(g *guard, params json.RawMessage) {
	var p struct {
		Token    json.RawMessage `json:"progressToken"`
		Progress *float64        `json:"progress"`
		Total    *float64        `json:"total"`
		Message  *string         `json:"message"`
	}
	if json.Unmarshal(params, &p) != nil || p.Progress == nil || len(p.Token) == 0 {
		g.stats.progressDropped.Add(1)
		return
	}
	t.mu.Lock()
	s := t.calls[idKey(p.Token)]
	t.mu.Unlock()
	if s == nil {
		g.stats.progressDropped.Add(1)
		return
	}
	ev := s.base
	ev.Progress, ev.Total = *p.Progress, p.Total
	if p.Message != nil {
		ev.Message = g.cfg.cut(*p.Message, maxProgressMessage)
	}
	if s.fire(ev) {
		g.stats.progressDelivered.Add(1)
	} else {
		g.stats.progressDropped.Add(1)
	}
}

// trackProgress adds _meta.progressToken to the tools/call params of px's
// call on c when it has a progress hook (the registration's, or ctx's
// WithProgress), and returns the function that ends the call's progress.
func trackProgress(ctx context.Context, px *proxy, c *conn, params map[string]any) func() {
	var hooks []ProgressFunc
	if px.onProgress != nil {
		hooks = append(hooks, px.onProgress)
	}
	if f := valueFrom[ProgressFunc](ctx); f != nil {
		hooks = append(hooks, *f)
	}
	if len(hooks) == 0 {
		return func() {}
	}
	s := &progressSink{base: ProgressEvent{Server: px.cfg.Name, Tool: px.wire, Name: px.name}, hooks: hooks}
	token, end := c.guard.progress.start(s)
	params["_meta"] = map[string]any{"progressToken": token}
	return end
}
