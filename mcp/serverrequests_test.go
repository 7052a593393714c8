package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// floodPings is how many pings a flooding server sends on one stream.
const floodPings = 2000

// withAnswerLimits sets the limiter's bounds for the pools the test makes
// (a guard copies them when it is made).
func withAnswerLimits(t *testing.T, burst int, every time.Duration) {
	t.Helper()
	oldBurst, oldEvery := serverRequestBurst, serverRequestEvery
	serverRequestBurst, serverRequestEvery = burst, every
	t.Cleanup(func() { serverRequestBurst, serverRequestEvery = oldBurst, oldEvery })
}

// answerCounter wraps a hostile server's handler and counts the POSTs that
// answer a server request (a JSON-RPC message with an id and no method),
// and the most of them in flight at once.
type answerCounter struct {
	next             http.Handler
	answers, errors  atomic.Int32
	inFlight, maxNow atomic.Int32
}

func (a *answerCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(body, &m) == nil && m.ID != nil && m.Method == nil {
			n := a.inFlight.Add(1)
			defer a.inFlight.Add(-1)
			for old := a.maxNow.Load(); n > old && !a.maxNow.CompareAndSwap(old, n); old = a.maxNow.Load() {
			}
			a.answers.Add(1)
			if m.Error != nil {
				a.errors.Add(1)
			}
			time.Sleep(time.Millisecond) // an answer takes a moment: others arrive meanwhile
			w.WriteHeader(http.StatusAccepted)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	a.next.ServeHTTP(w, r)
}

// countAnswers puts an answerCounter in front of h.
func countAnswers(h *hostile) *answerCounter {
	a := &answerCounter{next: h.ts.Config.Handler}
	h.ts.Config.Handler = a
	return a
}

// pingFlood writes floodPings pings (method, when not "ping") on an SSE
// answer, then the result when answer is set, else holds the stream open.
func pingFlood(method string, answer bool) func(w http.ResponseWriter, r *http.Request, m rpcMessage) {
	return func(w http.ResponseWriter, r *http.Request, m rpcMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < floodPings; i++ {
			_, _ = fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"ping-%d\",\"method\":%q}\n\n", i, method)
		}
		w.(http.Flusher).Flush()
		if answer {
			_, _ = fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n", m.ID)
			return
		}
		<-r.Context().Done()
	}
}

func TestServerRequestsAreBounded(t *testing.T) {
	withAnswerLimits(t, 4, time.Hour) // no token comes back during the test: at most 4 answers
	cases := []struct {
		name      string
		method    string
		answer    bool
		slots     int
		timeoutMs int
		status    core.Status
		code      core.Code
		answered  func(n int64) bool
	}{
		{"a ping flood, then the result", "ping", true, 5, 0, core.StatusCompleted, "", func(n int64) bool { return n >= 1 && n <= 4 }},
		{"a ping flood and no result", "ping", false, 5, 300, core.StatusFailed, core.CodeTimeout, func(n int64) bool { return n >= 1 && n <= 4 }},
		{"a flood of requests toolgate does not serve", "sampling/createMessage", true, 5, 0, core.StatusCompleted, "", func(n int64) bool { return n >= 1 && n <= 4 }},
		{"a ping flood with a cap of one connection", "ping", true, 1, 0, core.StatusCompleted, "", func(n int64) bool { return n >= 1 && n <= 4 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			counter := countAnswers(h)
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, MaxConnectionsPerServer: tc.slots, TimeoutMs: tc.timeoutMs}
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "f", URL: h.url},
				&RegisterOptions{Security: sec, ToolNames: []string{"t"}})
			require.NoError(t, err)
			h.setCall(pingFlood(tc.method, tc.answer))
			fc := invoke(t, m, "mcp__f__t", nil)
			assert.Equal(t, tc.status, fc.Status, "got %s (%v)", fc.Status, fc.Err)
			if tc.code != "" {
				assert.Equal(t, tc.code, core.AsError(fc.Err).Code, "got %v", fc.Err)
			} else {
				assert.Equal(t, "done", fc.Response)
			}
			waitUntil(t, "every server request is counted", func() bool {
				st := p.Stats()
				return st.ServerRequestsAnswered+st.ServerRequestsDropped == floodPings
			})
			st := p.Stats()
			assert.True(t, tc.answered(st.ServerRequestsAnswered), "got %d of %d server requests answered", st.ServerRequestsAnswered, floodPings)
			waitUntil(t, "the server got every answer", func() bool { return int64(counter.answers.Load()) == st.ServerRequestsAnswered })
			assert.LessOrEqual(t, counter.maxNow.Load(), int32(1), "answers are sent one at a time")
			if tc.method != "ping" {
				assert.Equal(t, counter.answers.Load(), counter.errors.Load(), "a request toolgate does not serve is answered with an error")
			}
			assert.Zero(t, st.AnswersDropped)

			h.setCall(nil) // and the connection still serves calls
			fc = invoke(t, m, "mcp__f__t", nil)
			assert.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
		})
	}
}

func TestServerRequestTokensComeBack(t *testing.T) {
	l := &answerLimiter{burst: 2, every: time.Second, tokens: 2, at: time.Unix(0, 0)}
	now := time.Unix(0, 0)
	take := func() bool { return l.take(now) }
	assert.True(t, take())
	assert.True(t, take())
	assert.False(t, take(), "the burst is spent")
	now = now.Add(999 * time.Millisecond)
	assert.False(t, take(), "not yet a whole token")
	now = now.Add(time.Millisecond)
	assert.True(t, take(), "one token per second")
	now = now.Add(time.Hour)
	assert.True(t, take())
	assert.True(t, take())
	assert.False(t, take(), "tokens never pile up beyond the burst")
}

func TestLegacyStreamPingsAreAnswered(t *testing.T) {
	withAnswerLimits(t, 4, time.Hour)
	h := newHostileSSE(t, func(string) string { return "/message" })
	h.list = func(id json.RawMessage) string {
		var b bytes.Buffer
		for i := 0; i < floodPings; i++ {
			fmt.Fprintf(&b, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"ping-%d\",\"method\":\"ping\"}\n\n", i)
		}
		fmt.Fprintf(&b, "event: message\ndata: %s\n\n", toolsResult(id, "good"))
		return b.String()
	}
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	names, err := RegisterServer(context.Background(), p, core.NewManager(nil),
		&ServerConfig{Name: "w", URL: h.url, Transport: TransportSSE}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__w__good"}, names)
	waitUntil(t, "every ping is counted", func() bool {
		st := p.Stats()
		return st.ServerRequestsAnswered+st.ServerRequestsDropped == floodPings
	})
	st := p.Stats()
	assert.GreaterOrEqual(t, st.ServerRequestsAnswered, int64(1))
	assert.LessOrEqual(t, st.ServerRequestsAnswered, int64(4), "got %d pings answered", st.ServerRequestsAnswered)
}
