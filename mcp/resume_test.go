package mcp

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// withResumeLimits sets the resume bounds for the pools the test makes (a
// guard copies them when it is made).
func withResumeLimits(t *testing.T, max int, wait, cap time.Duration) {
	t.Helper()
	oldMax, oldWait, oldCap := maxStreamResumes, resumeBackoff, maxResumeBackoff
	maxStreamResumes, resumeBackoff, maxResumeBackoff = max, wait, cap
	t.Cleanup(func() { maxStreamResumes, resumeBackoff, maxResumeBackoff = oldMax, oldWait, oldCap })
}

// endingStreams makes h answer tools/list with an SSE stream that ends
// after an event id (the SEP-1699 invitation to resume), and each resume
// GET the same way, until the resume numbered answerOn (never when 0)
// carries the answer. It returns the number of resume GETs seen.
func endingStreams(h *hostile, answerOn int32) *atomic.Int32 {
	var resumes atomic.Int32
	var listID atomic.Value
	h.toolsList = func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		listID.Store(string(m.ID))
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = fmt.Fprint(w, "id: 1\nretry: 0\ndata:\n\n")
	}
	next := h.ts.Config.Handler
	h.ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.Header.Get("Last-Event-ID") == "" {
			next.ServeHTTP(w, r)
			return
		}
		n := resumes.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		if n == answerOn {
			_, _ = fmt.Fprintf(w, "id: 2\ndata: %s\n\n", toolsResult([]byte(listID.Load().(string)), "good"))
			return
		}
		_, _ = fmt.Fprintf(w, "id: %d\nretry: 0\ndata:\n\n", n+1)
	})
	return &resumes
}

func TestResumedStreamsAreBounded(t *testing.T) {
	withResumeLimits(t, 5, time.Millisecond, 4*time.Millisecond)
	cases := []struct {
		name     string
		answerOn int32
		resumes  int32
		refused  int64
	}{
		{"a server that keeps ending the stream", 0, 5, 1},
		{"a server that answers on the third resume", 3, 3, 0},
		{"a server that answers on the last resume allowed", 5, 5, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			resumes := endingStreams(h, tc.answerOn)
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "r", URL: h.url}, &RegisterOptions{Security: loopback()})
			if tc.refused > 0 {
				var ce *core.Error
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, core.CodeTransport, ce.Code, "got %s (%s), want transport", ce.Code, ce.Message)
				assert.Contains(t, ce.Message, "ended the SSE stream of its answer 5 times")
				assert.Equal(t, []string{"local"}, m.Names())
			} else {
				require.NoError(t, err)
				assert.Equal(t, []string{"mcp__r__good"}, names)
			}
			assert.Equal(t, tc.resumes, resumes.Load(), "resume GETs the server saw")
			st := p.Stats()
			assert.Equal(t, int64(tc.resumes), st.StreamResumes)
			assert.Equal(t, tc.refused, st.StreamResumesRefused)
		})
	}
}

func TestResumeBackoffDoublesToItsCap(t *testing.T) {
	r := resumeLimits{max: 8, wait: 100 * time.Millisecond, cap: 2 * time.Second}
	want := []time.Duration{100, 200, 400, 800, 1600, 2000, 2000, 2000}
	for i, w := range want {
		assert.Equal(t, w*time.Millisecond, r.delay(i+1), "resume %d", i+1)
	}
	def := defaultResumeLimits()
	assert.Equal(t, resumeLimits{max: 5, wait: 100 * time.Millisecond, cap: 2 * time.Second}, def, "the defaults the docs give")
}

func TestResumedStreamsEndAtTheDeadline(t *testing.T) {
	withResumeLimits(t, 1000, time.Millisecond, time.Millisecond) // a bound the deadline comes before
	h := newHostile(t)
	resumes := endingStreams(h, 0)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: 200}
	_, err := RegisterServer(context.Background(), p, core.NewManager(nil), &ServerConfig{Name: "r", URL: h.url}, &RegisterOptions{Security: sec})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, core.CodeTimeout, ce.Code, "got %s (%s), want timeout", ce.Code, ce.Message)
	assert.Less(t, resumes.Load(), int32(1000), "the deadline ended the resumes")
}
