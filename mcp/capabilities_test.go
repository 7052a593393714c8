package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// allHooks answers every capability: a fixed root, a model that says
// "hello from the app", and a user who accepts with no content.
func allHooks() *ClientHooks {
	return &ClientHooks{
		Roots:       RootList([]Root{{URI: "file:///work", Name: "work"}}),
		Sampling:    fixedHook("s", `{"role":"assistant","content":{"type":"text","text":"hello from the app"},"model":"app-model"}`),
		Elicitation: fixedHook("e", `{"action":"accept"}`),
	}
}

// registerAsking registers the asking server's tool "t" under hooks.
func registerAsking(t *testing.T, a *askingServer, hooks *ClientHooks) (*Pool, *core.Manager) {
	t.Helper()
	p := NewPool(nil)
	t.Cleanup(func() { _ = p.Cleanup(context.Background()) })
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "a", URL: a.url},
		&RegisterOptions{Security: loopback(), ToolNames: []string{"t"}, Hooks: hooks})
	require.NoError(t, err)
	return p, m
}

func TestCapabilitiesAreDeclaredOnlyForTheHooksGiven(t *testing.T) {
	cases := []struct {
		name  string
		hooks *ClientHooks
		want  string
	}{
		{"no hooks", nil, `{}`},
		{"every hook", allHooks(), `{"elicitation":{"form":{}},"roots":{"listChanged":false},"sampling":{}}`},
		{"sampling only", &ClientHooks{Sampling: fixedHook("s", `{}`)}, `{"sampling":{}}`},
		{"roots as a function", &ClientHooks{Roots: fixedHook("r", `[]`)}, `{"roots":{"listChanged":false}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newAskingServer(t)
			_, m := registerAsking(t, a, tc.hooks)
			fc := invoke(t, m, "mcp__a__t", nil) // connects
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			got, _ := json.Marshal(a.capabilities())
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}

func TestHooksAnswerAnMCPGoServersRequests(t *testing.T) {
	var sampled atomic.Value
	hooks := allHooks()
	hooks.Sampling = hookFn("s", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
		sampled.Store(string(params))
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"hello from the app"},"model":"app-model"}`), nil
	})
	_, url := serveStreamable(t, capableTools())
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	// The legacy wire: the server sends requests of its own (mrtr_test.go has the modern twin).
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "c", URL: url, ProtocolVersion: ProtocolLegacy},
		&RegisterOptions{Security: loopback(), Hooks: hooks})
	require.NoError(t, err)

	fc := invoke(t, m, "mcp__c__sample", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Contains(t, fc.Response, "hello from the app")
	assert.Contains(t, sampled.Load(), "say hi", "the hook gets the request's params")

	fc = invoke(t, m, "mcp__c__elicit", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Contains(t, fc.Response, `"content":{"age":36,"name":"Ada"}`, "an accept without content gets the schema's defaults")

	fc = invoke(t, m, "mcp__c__roots", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Contains(t, fc.Response, `"uri":"file:///work"`)
}

func TestServerRequestsWithoutTheirHookGetMethodNotFound(t *testing.T) {
	a := newAskingServer(t)
	_, m := registerAsking(t, a, &ClientHooks{Sampling: fixedHook("s", `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`)})
	a.setCall(a.askThenAnswer(t,
		[2]string{"elicitation/create", `{"message":"hi","requestedSchema":{"type":"object","properties":{}}}`},
		[2]string{"roots/list", `{}`},
		[2]string{"something/else", `{}`},
		[2]string{"ping", `{}`},
	))
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "the call still ends: %v", fc.Err)
	assert.Equal(t, strings.Join([]string{
		"s:ask-0: error -32601 Method not found",
		"s:ask-1: error -32601 Method not found",
		"s:ask-2: error -32601 Method not found",
		"s:ask-3: {}",
	}, "\n"), fc.Response)
}

func TestAFailingHookAnswersAnErrorThatQuotesNothing(t *testing.T) {
	a := newAskingServer(t)
	calls := atomic.Int32{}
	failing := hookFn("f", func(context.Context, json.RawMessage) (json.RawMessage, error) {
		calls.Add(1)
		return nil, errSecret
	})
	_, m := registerAsking(t, a, &ClientHooks{Sampling: failing, Elicitation: fixedHook("e", `{"action":"maybe"}`),
		Roots: fixedHook("r", `[{"uri":"https://not-a-file"}]`)})
	a.setCall(a.askThenAnswer(t,
		[2]string{"sampling/createMessage", `{"messages":[],"maxTokens":1}`},
		[2]string{"elicitation/create", `{"message":"hi","requestedSchema":{"type":"object","properties":{}}}`},
		[2]string{"roots/list", `{}`},
	))
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "the call still ends: %v", fc.Err)
	got := fc.Response.(string)
	noSecret(t, got, errSecret.Error())
	assert.Contains(t, got, "s:ask-0: error -32603 the client's sampling hook failed")
	assert.Contains(t, got, `s:ask-1: error -32602 invalid elicitation result: action must be "accept", "decline" or "cancel"`)
	assert.Contains(t, got, "s:ask-2: error -32602 the client's roots hook returned a bad root: roots[0].uri must be a file:// URI")

	a.setCall(nil) // and the connection still serves calls
	fc = invoke(t, m, "mcp__a__t", nil)
	assert.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Equal(t, int32(1), calls.Load())
}

func TestASlowHookStarvesNoPing(t *testing.T) {
	a := newAskingServer(t)
	release := make(chan struct{})
	slow := hookFn("slow", func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"late"},"model":"m"}`), nil
	})
	_, m := registerAsking(t, a, &ClientHooks{Sampling: slow})
	a.setCall(func(w http.ResponseWriter, r *http.Request, msg rpcMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(id, method string) {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%q,\"method\":%q,\"params\":{}}\n\n", id, method)
			w.(http.Flusher).Flush()
		}
		send("sample", "sampling/createMessage")
		for i := 0; i < 3; i++ { // each ping is answered while the hook still runs
			send(fmt.Sprint("ping-", i), "ping")
			assert.Equal(t, postedAnswer{ID: fmt.Sprint("s:ping-", i), Result: json.RawMessage(`{}`)}, withoutHeader(a.next(t)))
			time.Sleep(1100 * time.Millisecond / 4)
		}
		close(release)
		got := a.next(t)
		text, _ := json.Marshal(describeAnswer(got))
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%s}]}}\n\n", msg.ID, text)
	})
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Contains(t, fc.Response, `s:sample: {"role":"assistant","content":{"type":"text","text":"late"},"model":"m"}`)
}

// withoutHeader drops what a comparison should not see.
func withoutHeader(a postedAnswer) postedAnswer {
	a.Header = nil
	return a
}

func TestHookCallsInFlightAreBounded(t *testing.T) {
	a := newAskingServer(t)
	release := make(chan struct{})
	var running, most atomic.Int32
	blocking := hookFn("b", func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for old := most.Load(); n > old && !most.CompareAndSwap(old, n); old = most.Load() {
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return json.RawMessage(`{"action":"decline"}`), nil
	})
	_, m := registerAsking(t, a, &ClientHooks{Elicitation: blocking})
	var asks [][2]string
	for i := 0; i < maxHooksInFlight+2; i++ {
		asks = append(asks, [2]string{"elicitation/create", `{"message":"hi","requestedSchema":{"type":"object"}}`})
	}
	go func() {
		waitUntil(t, "the hooks run", func() bool { return running.Load() == int32(maxHooksInFlight) })
		time.Sleep(50 * time.Millisecond)
		close(release)
	}()
	a.setCall(a.askThenAnswer(t, asks...))
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	got := fc.Response.(string)
	assert.Equal(t, maxHooksInFlight, strings.Count(got, `{"action":"decline"}`), "got %s", got)
	assert.Equal(t, 2, strings.Count(got, "error -32603 too many requests for the client's hooks at once (at most 4 per connection)"), "got %s", got)
	assert.Equal(t, int32(maxHooksInFlight), most.Load())
}

func TestThePoolKeepsRegistrationsWithOtherHooksApart(t *testing.T) {
	_, url := serveStreamable(t, capableTools())
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	cfg := &ServerConfig{Name: "c", URL: url, ProtocolVersion: ProtocolLegacy} // connections (sessions) of the legacy wire
	say := func(text string) *ClientHooks {
		return &ClientHooks{Sampling: fixedHook("hook-"+text, `{"role":"assistant","content":{"type":"text","text":"`+text+`"},"model":"m"}`)}
	}
	var managers []*core.Manager
	for _, hooks := range []*ClientHooks{say("one"), say("two"), say("one"), nil} {
		m := core.NewManager(nil)
		_, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: loopback(), Hooks: hooks})
		require.NoError(t, err)
		managers = append(managers, m)
	}
	p.mu.Lock()
	n := len(p.entries)
	p.mu.Unlock()
	assert.Equal(t, 3, n, "got %d pool entries, want one per set of hook ids", n)
	for i, want := range []string{"one", "two", "one"} {
		fc := invoke(t, managers[i], "mcp__c__sample", nil)
		require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
		assert.Contains(t, fc.Response, `"text":"`+want+`"`)
	}
}

func TestRegistrationRefusesBadHooks(t *testing.T) {
	a := newAskingServer(t)
	for name, hooks := range map[string]*ClientHooks{
		"option roots: roots[1].uri must be a file:// URI": {Roots: RootList([]Root{{URI: "file:///a"}, {URI: "/tmp"}})},
		"option sampling has no function":                  {Sampling: &Hook{ID: "x"}},
	} {
		_, err := RegisterServer(context.Background(), NewPool(nil), core.NewManager(nil), &ServerConfig{Name: "a", URL: a.url},
			&RegisterOptions{Security: loopback(), Hooks: hooks})
		require.Error(t, err)
		assert.Equal(t, core.CodeUnsupportedType, core.AsError(err).Code)
		assert.Contains(t, err.Error(), name)
	}
	assert.Zero(t, a.requests.Load(), "nothing is sent for a refused registration")
}

func TestTheGETStreamCarriesServerRequestsWhenHooksAreGiven(t *testing.T) {
	for _, withHooks := range []bool{true, false} {
		t.Run(fmt.Sprint("hooks ", withHooks), func(t *testing.T) {
			a := newAskingServer(t)
			var gets atomic.Int32
			a.get = func(w http.ResponseWriter, r *http.Request) {
				gets.Add(1)
				assert.Equal(t, "hostile-session", r.Header.Get("Mcp-Session-Id"))
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roots/list\"}\n\n")
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
				case <-a.stop:
				}
			}
			var hooks *ClientHooks
			if withHooks {
				hooks = &ClientHooks{Roots: RootList([]Root{{URI: "file:///w"}})}
			}
			p, m := registerAsking(t, a, hooks)
			fc := invoke(t, m, "mcp__a__t", nil)
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			if !withHooks {
				time.Sleep(100 * time.Millisecond)
				assert.Zero(t, gets.Load(), "a client without hooks opens no GET stream")
				return
			}
			got := a.next(t)
			assert.Equal(t, "n:7", got.ID)
			assert.JSONEq(t, `{"roots":[{"uri":"file:///w"}]}`, string(got.Result))
			assert.Equal(t, "hostile-session", got.Header.Get("Mcp-Session-Id"), "the answer carries the session")
			require.NoError(t, p.Cleanup(context.Background()))
			assert.Equal(t, int32(1), gets.Load())
		})
	}
}

func TestARefusedGETStreamIsNotRetriedNorACallsFailure(t *testing.T) {
	a := newAskingServer(t) // answers GET with 405
	_, m := registerAsking(t, a, allHooks())
	for i := 0; i < 3; i++ {
		fc := invoke(t, m, "mcp__a__t", nil)
		require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	}
	time.Sleep(100 * time.Millisecond)
	assert.Equal(t, int32(7), a.requests.Load(), "the era probe, initialize, initialized, one GET, three calls: got %d requests", a.requests.Load())
}

func TestAHookPastItsDeadlineAnswersInTime(t *testing.T) {
	var sawDone atomic.Bool
	stuck := hookFn("stuck", func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		sawDone.Store(true)
		return nil, ctx.Err()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	g := &guard{asks: newServerAsks(&ClientHooks{Sampling: stuck})}
	got := g.runHook(ctx, stuck, "sampling", &jsonrpcMessage{ID: json.RawMessage(`"q"`), Method: "sampling/createMessage"})
	require.NotNil(t, got.Error)
	assert.Equal(t, rpcInternal, got.Error.Code)
	assert.Equal(t, "the client's sampling hook did not answer in time", got.Error.Message)
	assert.Equal(t, `"q"`, string(got.ID))
	assert.True(t, sawDone.Load(), "the hook's context ended")
}

func TestAServerCancelEndsTheHookAndSendsNoAnswer(t *testing.T) {
	a := newAskingServer(t)
	aborted := make(chan struct{})
	waiting := hookFn("w", func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		close(aborted)
		return nil, ctx.Err()
	})
	_, m := registerAsking(t, a, &ClientHooks{Elicitation: waiting})
	a.setCall(func(w http.ResponseWriter, r *http.Request, msg rpcMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"ask-0\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"m\",\"requestedSchema\":{\"type\":\"object\"}}}\n\n")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"ask-0\",\"reason\":\"no longer needed\"}}\n\n")
		w.(http.Flusher).Flush()
		text := "aborted"
		select {
		case <-aborted:
		case <-time.After(5 * time.Second):
			text = "the hook was not aborted"
		}
		select {
		case got := <-a.answers:
			text = "answered: " + describeAnswer(got)
		case <-time.After(200 * time.Millisecond):
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%q}]}}\n\n", msg.ID, text)
	})
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Equal(t, "aborted", fc.Response)
}
