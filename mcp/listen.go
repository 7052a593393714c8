package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/toolgate/toolgate/internal/wire"
)

// Streamable HTTP's GET stream: a server sends on it the requests that
// belong to no request of ours (roots/list right after initialize, as
// server-everything does; an elicitation a tool handler sends without
// naming its call, as the conformance suite's server does). The session
// opens it after initialize when the registration has client hooks (a
// client without hooks has nothing to answer there but pings), waiting up
// to listenWait for its answer, and reopens
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

// listenWait is how long listen waits for the GET stream's headers: a
// server registers the stream before it answers, so a request it sends
// there right after (the conformance suite's elicitation) is not lost.
const listenWait = 2 * time.Second

// listen starts the GET stream's goroutine when the session wants one, and
// waits for its first answer (at most listenWait or until ctx ends).
func (s *session) listen(ctx context.Context) {
	if s.legacy || !s.cfg.hooks.any() {
		return
	}
	ready := make(chan struct{})
	go s.listenLoop(s.g.life, ready)
	t := time.NewTimer(listenWait)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
	}
}

// listenLoop opens the GET stream until life ends, the server refuses it,
// or it keeps ending quickly; ready is closed once the first GET is
// answered or fails.
func (s *session) listenLoop(life context.Context, ready chan struct{}) {
	short, backoff := 0, time.Duration(0)
	var once sync.Once
	opened := func() { once.Do(func() { close(ready) }) }
	defer opened()
	for life.Err() == nil {
		start := time.Now()
		retry, ok := s.listenOnce(life, opened)
		if !ok {
			return
		}
		short, backoff = short+1, min(max(2*backoff, 100*time.Millisecond), maxListenBackoff)
		if time.Since(start) >= listenShortStream {
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
// could not be opened. opened runs once the GET is answered or failed.
func (s *session) listenOnce(life context.Context, opened func()) (retry time.Duration, ok bool) {
	req, err := wire.NewRequest(life, wire.MethodGet, s.cfg.URL, nil)
	if err != nil {
		return 0, false
	}
	s.setHeaders(req.Header, "text/event-stream")
	req.Header.Del("Content-Type")
	resp, err := s.g.RoundTrip(req)
	opened()
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
