package mcp

import (
	"context"
	"time"

	"github.com/toolgate/toolgate/internal/wire"
)

// Streamable HTTP's GET stream: a server sends on it the requests that
// belong to no request of ours (roots/list right after initialize, as
// server-everything does; an elicitation a tool handler sends without
// naming its call, as the conformance suite's server does). The session
// opens it after initialize when the registration has client hooks (a
// client without hooks has nothing to answer there but pings), and reopens
// it when the server ends it, waiting the server's retry (1 s without
// one), doubled for each stream in a row that lasted under
// listenShortStream, up to maxListenBackoff; after maxShortListens short
// streams in a row, a refusal (405: the server offers no such stream), or a
// failure to connect, it stays closed. It ends with the connection. The
// guard filters it as any stream (server requests answered, answers
// dropped), and its failures are no call's failure.
const (
	listenShortStream = 10 * time.Second
	maxListenBackoff  = 30 * time.Second
	maxShortListens   = 5
)

// listen starts the GET stream's goroutine when the session wants one.
func (s *session) listen() {
	if s.legacy || !s.cfg.hooks.any() {
		return
	}
	go s.listenLoop(s.g.life)
}

// listenLoop opens the GET stream until life ends, the server refuses it,
// or it keeps ending quickly.
func (s *session) listenLoop(life context.Context) {
	short, backoff := 0, time.Duration(0)
	for life.Err() == nil {
		opened := time.Now()
		retry, ok := s.listenOnce(life)
		if !ok {
			return
		}
		short, backoff = short+1, min(max(2*backoff, 100*time.Millisecond), maxListenBackoff)
		if time.Since(opened) >= listenShortStream {
			short, backoff = 0, 0
		}
		if short >= maxShortListens {
			return
		}
		t := time.NewTimer(retry + backoff)
		select {
		case <-t.C:
		case <-life.Done():
			t.Stop()
			return
		}
	}
}

// listenOnce reads one GET stream to its end and returns the server's retry
// (defaultRetry without one); ok is false when the stream was refused or
// could not be opened.
func (s *session) listenOnce(life context.Context) (retry time.Duration, ok bool) {
	req, err := wire.NewRequest(life, wire.MethodGet, s.cfg.URL, nil)
	if err != nil {
		return 0, false
	}
	s.setHeaders(req.Header, "text/event-stream")
	req.Header.Del("Content-Type")
	resp, err := s.g.RoundTrip(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != wire.StatusOK {
		return 0, false
	}
	retry = defaultRetry
	r := newSSEReader(resp.Body)
	for {
		ev, err := r.next()
		if err != nil {
			return retry, life.Err() == nil
		}
		if ev.retry >= 0 {
			retry = time.Duration(ev.retry) * time.Millisecond
		}
	}
}
