package mcp

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
)

// The standalone GET stream of a Streamable HTTP session (docs/security.md,
// "Notifications" and "Client capabilities"): opened after initialize,
// only when the connection's registrations have client hooks (a server
// sends there the requests that belong to no call of ours: roots/list
// right after initialize, as server-everything does; an elicitation a
// tool handler sends without naming its call, as the conformance suite's
// server does), or one has an OnToolsChanged hook and the server declared
// capabilities.tools.listChanged; never otherwise, because it holds a
// connection open (in Node: the process stays up until Pool.Cleanup). For
// hooks, connecting waits up to listenWait for the stream's answer, so a
// request the server sends there right after is not lost. Its notifications go
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

// listenWait is how long connecting waits for the standalone stream's
// answer when the connection has client hooks.
const listenWait = 2 * time.Second

// openStream opens the connection's standalone GET stream unless it is
// open or the transport is the legacy one. ready (nil: none) is closed
// once the first GET is answered or has failed.
func (c *conn) openStream(p *Pool, ready chan struct{}) {
	if c.sess.legacy || c.dead.Load() {
		if ready != nil {
			close(ready)
		}
		return
	}
	c.stream.mu.Lock()
	defer c.stream.mu.Unlock()
	if c.stream.open {
		if ready != nil {
			close(ready)
		}
		return
	}
	c.stream.open = true
	go c.runStream(c.guard.life, p, ready)
}

// streamState is what a standalone stream remembers across reconnections.
type streamState struct {
	lastID string
	retry  time.Duration
}

// runStream keeps the standalone stream open until ctx ends (the
// connection closes) or it gives up.
func (c *conn) runStream(ctx context.Context, p *Pool, ready chan struct{}) {
	st := &streamState{retry: defaultRetry}
	var once sync.Once
	opened := func() {
		if ready != nil {
			once.Do(func() { close(ready) })
		}
	}
	defer opened()
	c.keepOpen(ctx, p, func() (int, bool, time.Duration) {
		events, again := c.readStandalone(ctx, p, st, opened)
		return events, again, st.retry
	})
}

// keepOpen opens a long-lived stream (open: how many events it read,
// whether to open it again, the wait the server asked for) until ctx ends
// or open says not again, waiting between openings that wait and the
// guard's resume backoff; after resume.max openings in a row that
// delivered no event it gives up (counted as a refused resume).
func (c *conn) keepOpen(ctx context.Context, p *Pool, open func() (int, bool, time.Duration)) {
	misses := 0
	for {
		events, again, retry := open()
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
		t := time.NewTimer(retry + c.guard.resume.delay(misses))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

// readStandalone opens the stream once and reads it to its end; it returns
// how many events it read and whether to open it again. opened runs once
// the GET is answered or has failed.
func (c *conn) readStandalone(ctx context.Context, p *Pool, st *streamState, opened func()) (int, bool) {
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
	resp, err := s.send(req, false)
	opened()
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
	return p.readOpenStream(resp.Body, func(ev sseEvent) bool {
		if ev.id != "" {
			st.lastID = ev.id
		}
		if ev.retry >= 0 {
			st.retry = time.Duration(ev.retry) * time.Millisecond
		}
		return true
	})
}

// readOpenStream counts a stream the client keeps open (the GET stream, a
// subscriptions/listen stream) and hands take each of its events until the
// stream ends or take returns false. It returns how many events it read and
// whether to open the stream again: yes when it ended, no when take said
// stop.
func (p *Pool) readOpenStream(body io.Reader, take func(sseEvent) bool) (int, bool) {
	p.stats.standaloneStreams.Add(1)
	n := 0
	r := newSSEReader(body)
	for {
		ev, err := r.next()
		if err != nil {
			return n, true
		}
		n++
		if !take(ev) {
			return n, false
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
	switch {
	case c == nil:
	case c.sess.isModern():
		if c.toolsListChanged.Load() || c.eraCached {
			c.openListen(p) // listen.go; from the cache the server's capabilities are unknown: its ack tells
		}
	case c.toolsListChanged.Load():
		c.openStream(p, nil)
	}
}

// connected wires a new connection of entry e to the pool's notification
// handling: list changes reach the registrations followed on e, and the
// standalone stream opens when the connection has client hooks (waiting up
// to listenWait for its answer) or a followed registration wants it; on the
// modern wire, the listen stream (listen.go) when a followed registration
// wants it.
func (p *Pool) connected(e *entry, c *conn) {
	if c.sess.isModern() {
		// No server requests on the modern wire (MRTR), so hooks need no
		// stream; list changes come on subscriptions/listen.
		if (c.toolsListChanged.Load() || c.eraCached) && p.wantsStream(e.key) {
			c.openListen(p)
		}
		return
	}
	switch {
	case e.cfg.hooks.any():
		ready := make(chan struct{})
		c.openStream(p, ready)
		t := time.NewTimer(listenWait)
		defer t.Stop()
		select {
		case <-ready:
		case <-t.C:
		}
	case c.toolsListChanged.Load() && p.wantsStream(e.key):
		c.openStream(p, nil)
	}
}

// hookListChanged makes notifications/tools/list_changed on c's streams
// refresh the registrations followed on e, when the server declared
// listChanged (else they are ignored and counted).
func (p *Pool) hookListChanged(e *entry, c *conn) {
	hook := func() {
		p.lists.invalidate(e.cfg.URL) // listcache.go: the pages are stale now
		if c.toolsListChanged.Load() {
			p.listChanged(e.key)
		} else {
			p.stats.notificationsIgnored.Add(1)
		}
	}
	c.guard.listChanged.Store(&hook)
}
