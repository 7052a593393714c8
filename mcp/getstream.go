package mcp

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
)

// The standalone GET stream of a Streamable HTTP session (docs/security.md,
// "Notifications"): opened after initialize, only when a registration on
// the connection has an OnToolsChanged hook and the server declared
// capabilities.tools.listChanged, because it holds a connection open (in
// Node: the process stays up until Pool.Cleanup). Its notifications go
// through the guard like any stream's. When it ends it is opened again,
// with Last-Event-ID after an event id, once the server's retry (1 s
// without one) and the guard's resume backoff have passed; after
// maxStreamResumes attempts in a row that delivered no event it stays
// closed. A 405 means the server offers none; a 404 that the session
// ended (the connection is replaced by the next operation). It closes with
// the connection.

// standaloneMark marks the context of a standalone GET stream's requests
// for the guard: the connection's stream as the filter sees it, but with a
// backoff and a failure sink of its own.
type standaloneMark struct{}

// statusMethodNotAllowed is HTTP 405: the server offers no standalone stream.
const statusMethodNotAllowed = 405

// standaloneStream is a connection's standalone GET stream state.
type standaloneStream struct {
	mu   sync.Mutex
	open bool
}

// openStream opens the connection's standalone GET stream unless it is
// open, the transport is the legacy one, or the server did not declare
// listChanged.
func (c *conn) openStream(p *Pool) {
	if c.sess.legacy || !c.toolsListChanged.Load() || c.dead.Load() {
		return
	}
	c.stream.mu.Lock()
	defer c.stream.mu.Unlock()
	if c.stream.open {
		return
	}
	c.stream.open = true
	go c.runStream(c.guard.life, p)
}

// streamState is what a standalone stream remembers across reconnections.
type streamState struct {
	lastID string
	retry  time.Duration
}

// runStream keeps the standalone stream open until ctx ends (the
// connection closes) or it gives up.
func (c *conn) runStream(ctx context.Context, p *Pool) {
	st := &streamState{retry: defaultRetry}
	misses := 0
	for {
		events, again := c.readStandalone(ctx, p, st)
		if !again || ctx.Err() != nil {
			return
		}
		if events > 0 {
			misses = 0
		}
		misses++
		if misses > c.guard.resume.max {
			p.stats.streamResumesRefused.Add(1)
			return
		}
		t := time.NewTimer(st.retry + c.guard.resume.delay(misses))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

// readStandalone opens the stream once and reads it to its end; it returns
// how many events it read and whether to open it again.
func (c *conn) readStandalone(ctx context.Context, p *Pool, st *streamState) (int, bool) {
	s := c.sess
	req, err := wire.NewRequest(withValue(withValue(ctx, &standaloneMark{}), &failureSink{}), wire.MethodGet, s.target(), nil)
	if err != nil {
		return 0, false
	}
	s.setHeaders(req.Header, "text/event-stream")
	req.Header.Del("Content-Type")
	if st.lastID != "" {
		req.Header.Set("Last-Event-ID", st.lastID)
	}
	resp, err := c.guard.RoundTrip(req)
	if err != nil {
		return 0, ctx.Err() == nil && !errors.Is(err, core.ErrPolicyDenied)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == statusMethodNotAllowed:
		return 0, false // the server offers no standalone stream
	case resp.StatusCode == wire.StatusNotFound:
		c.dead.Store(true) // the session ended: the next operation reconnects
		return 0, false
	case resp.StatusCode != wire.StatusOK:
		return 0, true
	}
	p.stats.standaloneStreams.Add(1)
	n := 0
	r := newSSEReader(resp.Body)
	for {
		ev, err := r.next()
		if err != nil {
			return n, true
		}
		n++
		if ev.id != "" {
			st.lastID = ev.id
		}
		if ev.retry >= 0 {
			st.retry = time.Duration(ev.retry) * time.Millisecond
		}
	}
}

// openStreams opens the standalone stream of the live connection of the
// pool entry entryKey, if it has one.
func (p *Pool) openStreams(entryKey string) {
	p.mu.Lock()
	e := p.entries[entryKey]
	p.mu.Unlock()
	if e == nil {
		return
	}
	e.mu.Lock()
	c := e.c
	e.mu.Unlock()
	if c != nil {
		c.openStream(p)
	}
}

// connected wires a new connection of entry e to the pool's notification
// handling: list changes reach the registrations followed on e, and the
// standalone stream opens when one wants it.
func (p *Pool) connected(e *entry, c *conn) {
	if p.wantsStream(e.key) {
		c.openStream(p)
	}
}

// hookListChanged makes notifications/tools/list_changed on c's streams
// refresh the registrations followed on e, when the server declared
// listChanged (else they are ignored and counted).
func (p *Pool) hookListChanged(e *entry, c *conn) {
	hook := func() {
		if c.toolsListChanged.Load() {
			p.listChanged(e.key)
		} else {
			p.stats.notificationsIgnored.Add(1)
		}
	}
	c.guard.listChanged.Store(&hook)
}
