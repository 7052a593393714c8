package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestBoundedReturnsWhenTheContextEnds(t *testing.T) {
	release := make(chan struct{})
	finished := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	err := bounded(ctx, func() error {
		defer close(finished)
		<-release // f ignores ctx
		return errors.New("late")
	})
	assert.ErrorIs(t, err, context.Canceled, "got %v, want the context's error while f still runs", err)
	select {
	case <-finished:
		t.Fatal("f finished before it was released")
	default:
	}
	close(release)
	<-finished

	assert.EqualError(t, bounded(context.Background(), func() error { return errors.New("f's own") }), "f's own")
	assert.NoError(t, bounded(context.Background(), func() error { return nil }))
}

func TestDeadlinesHoldUnderAFlood(t *testing.T) {
	floods := map[string]string{
		"notifications":         `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`,
		"answers to no request": `{"jsonrpc":"2.0","id":"nobody","result":{}}`,
		"pings":                 `{"jsonrpc":"2.0","id":"p","method":"ping"}`,
	}
	for name, event := range floods {
		t.Run(name, func(t *testing.T) {
			h := newHostile(t)
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: 200}
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "f", URL: h.url},
				&RegisterOptions{Security: sec, ToolNames: []string{"t"}})
			require.NoError(t, err)
			h.setCall(func(w http.ResponseWriter, r *http.Request, _ rpcMessage) {
				w.Header().Set("Content-Type", "text/event-stream")
				for r.Context().Err() == nil {
					if _, err := fmt.Fprintf(w, "data: %s\n\n", event); err != nil {
						return
					}
				}
			})
			fc := invoke(t, m, "mcp__f__t", nil)
			assert.Equal(t, core.StatusFailed, fc.Status)
			assert.Equal(t, core.CodeTimeout, core.AsError(fc.Err).Code, "got %v, want timeout", fc.Err)
		})
	}
}
