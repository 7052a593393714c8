package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
	"github.com/toolgate/toolgate/internal/wire/nethttp"
)

// mcpInfo reads a registered proxy's tool.mcp.
func mcpInfo(t *testing.T, m *core.Manager, name string) map[string]any {
	t.Helper()
	tool, ok := m.Get(name)
	require.True(t, ok, "no tool %s", name)
	var info map[string]any
	require.NoError(t, json.Unmarshal(tool.Callable.(*proxy).MCPTool(), &info))
	return info
}

func TestTheEraIsFoundOnceAndShownOnTheTools(t *testing.T) {
	modern := &wireLog{next: server.NewStreamableHTTPServer(fixtureTools(nil))}
	mts := httptest.NewServer(modern)
	defer mts.Close()
	legacy := &legacyOnly{next: server.NewStreamableHTTPServer(fixtureTools(nil), server.WithStateful(true))}
	lts := httptest.NewServer(legacy)
	defer lts.Close()
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	for i, c := range []struct{ url, version string }{
		{mts.URL + "/mcp", ProtocolModern}, {lts.URL + "/mcp", ProtocolLegacy}, {mts.URL + "/mcp", ProtocolModern},
	} {
		m, _ := registerFixture(t, p, c.url, "")
		assert.Equal(t, c.version, mcpInfo(t, m, "mcp__fx__echo")["protocolVersion"], "registration %d", i)
		fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "hi"})
		require.Equal(t, core.StatusCompleted, fc.Status, "registration %d: %v", i, fc.Err)
		require.NoError(t, p.Cleanup(context.Background())) // the next registration connects again
	}
	assert.Equal(t, int64(2), p.Stats().EraProbes, "one probe per origin: the third registration used the cache")
	assert.Empty(t, modern.calls("initialize"), "a modern server gets no handshake")
	assert.Len(t, modern.calls("server/discover"), 1)

	declared := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, declared, &ServerConfig{Name: "fx", URL: mts.URL + "/mcp"},
		&RegisterOptions{Security: loopback(), ToolNames: []string{"echo"}})
	require.NoError(t, err)
	assert.Nil(t, mcpInfo(t, declared, "mcp__fx__echo")["protocolVersion"], "a declared tool was discovered with no version")
}

// switchable serves one of two handlers, chosen at run time.
type switchable struct {
	modern atomic.Bool
	a, b   http.Handler // modern, legacy
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.modern.Load() {
		s.a.ServeHTTP(w, r)
		return
	}
	s.b.ServeHTTP(w, r)
}

// modernOnly refuses the legacy handshake as a 2026-07-28-only server does.
func modernOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Protocol-Version") != ProtocolModern {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func TestACachedEraThatTurnedWrongIsFoundAgain(t *testing.T) {
	sw := &switchable{
		a: modernOnly(server.NewStreamableHTTPServer(fixtureTools(nil))),
		b: &legacyOnly{next: server.NewStreamableHTTPServer(fixtureTools(nil), server.WithStateful(true))},
	}
	ts := httptest.NewServer(sw)
	defer ts.Close()
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m, _ := registerFixture(t, p, ts.URL+"/mcp", "") // legacy, cached
	for i, modern := range []bool{true, false, true} {
		sw.modern.Store(modern) // the server is upgraded (or rolled back)
		require.NoError(t, p.Cleanup(context.Background()))
		fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "again"})
		require.Equal(t, core.StatusCompleted, fc.Status, "switch %d: got %v", i, fc.Err)
		assert.Equal(t, "again", fc.Response)
	}
	assert.Equal(t, int64(4), p.Stats().EraProbes, "the first probe, then one each time the cached era failed")
}

func TestListPagesAreCachedByTheirHints(t *testing.T) {
	for _, scope := range []mcpgo.CacheScope{mcpgo.CacheScopePublic, mcpgo.CacheScopePrivate} {
		t.Run(string(scope), func(t *testing.T) {
			s := server.NewMCPServer("cached", "1.0.0", server.WithToolCapabilities(true), server.WithCacheHints(60000, scope))
			s.AddTool(mcpgo.NewTool("echo"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				return mcpgo.NewToolResultText("e"), nil
			})
			log := &wireLog{next: server.NewStreamableHTTPServer(s)}
			ts := httptest.NewServer(log)
			defer ts.Close()
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			register := func(token string) {
				cfg := &ServerConfig{Name: "c", URL: ts.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer " + token}}
				_, err := RegisterServer(context.Background(), p, core.NewManager(nil), cfg, &RegisterOptions{Security: loopback()})
				require.NoError(t, err)
			}
			register("alice")
			register("alice")
			assert.Len(t, log.calls("tools/list"), 1, "a fresh page is not fetched again")
			register("bob")
			want := 1
			if scope == mcpgo.CacheScopePrivate {
				want = 2 // another principal
			}
			assert.Len(t, log.calls("tools/list"), want)
			assert.Equal(t, int64(3-want), p.Stats().ListCacheHits)
		})
	}
}

func TestAListChangeDropsTheCachedPages(t *testing.T) {
	s := progressServer()
	server.WithCacheHints(60000, mcpgo.CacheScopePublic)(s)
	log := &wireLog{next: server.NewStreamableHTTPServer(s)}
	ts := httptest.NewServer(log)
	defer ts.Close()
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var changes changeLog
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "st", URL: ts.URL + "/mcp"},
		&RegisterOptions{Security: loopback(), OnToolsChanged: changes.add})
	require.NoError(t, err)
	waitUntil(t, "the listen stream opens", func() bool { return p.Stats().StandaloneStreams == 1 })
	assert.Len(t, log.calls(methodListen), 1)
	ev := addUntilReported(t, s, "later", &changes, 1)[0]
	require.Nil(t, ev.Error)
	assert.Equal(t, []string{"mcp__st__later"}, ev.Added, "the refresh fetched the list again")
	assert.Len(t, log.calls("tools/list"), 2)
}

// headerTools are a tool with valid x-mcp-header annotations and one whose
// annotation is no header name.
const headerTools = `[{"name":"query","inputSchema":{"type":"object","properties":{
	"region":{"type":"string","x-mcp-header":"Region"},
	"limit":{"type":"integer","x-mcp-header":"Limit"},
	"opts":{"type":"object","properties":{"dry":{"type":"boolean","x-mcp-header":"Dry"}}}}}},
	{"name":"broken","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"not a token"}}}}]`

func TestXMCPHeaderValuesAreMirroredAndBadToolsLeftOut(t *testing.T) {
	url, _, log := modernServerOf(t, headerTools, func(int, json.RawMessage) string {
		return `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`
	})
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	var warned []*core.Error
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "h", URL: url},
		&RegisterOptions{Security: loopback(), OnWarning: func(server string, err error) {
			assert.Equal(t, "h", server)
			warned = append(warned, core.AsError(err))
		}})
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__h__query"}, names, "the broken tool is left out, its sibling kept")
	require.Len(t, warned, 1)
	assert.Equal(t, core.CodeInvalidTool, warned[0].Code)
	assert.Equal(t, RuleMCPHeader, warned[0].Rule)
	assert.Equal(t, "broken", warned[0].Tool)

	fc := invoke(t, m, "mcp__h__query", map[string]any{"region": "eu-west 1 ", "limit": 5, "opts": map[string]any{"dry": true}})
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	calls := log.calls("tools/call")
	require.Len(t, calls, 1)
	h := calls[0].header
	assert.Equal(t, "=?base64?ZXUtd2VzdCAxIA==?=", h.Get("Mcp-Param-Region"), "a trailing space is encoded")
	assert.Equal(t, "5", h.Get("Mcp-Param-Limit"))
	assert.Equal(t, "true", h.Get("Mcp-Param-Dry"))
	assert.Equal(t, "query", h.Get("Mcp-Name"))

	fc = invoke(t, m, "mcp__h__query", map[string]any{"limit": 1})
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	h = log.calls("tools/call")[1].header
	assert.Empty(t, h.Values("Mcp-Param-Region"), "an absent value sends no header")
	assert.Equal(t, "1", h.Get("Mcp-Param-Limit"))

	// A model's null for an optional parameter that does not accept null is "not given".
	fc = invoke(t, m, "mcp__h__query", map[string]any{"region": nil, "limit": 2})
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Equal(t, []core.Conversion{{Path: "/region", From: "null", To: "absent"}}, fc.Conversions)
	sent := log.calls("tools/call")[2]
	assert.Empty(t, sent.header.Values("Mcp-Param-Region"))
	assert.NotContains(t, string(sent.msg.Params), "region")
}

// flakyBase fails its first request with failure, as Node's fetch does on
// a kept-alive connection the server has just closed, then sends with base.
type flakyBase struct {
	base    wire.RoundTripper
	failure string
	fails   atomic.Int32
}

func (f *flakyBase) RoundTrip(req *wire.Request) (*wire.Response, error) {
	if f.fails.Add(1) == 1 {
		return nil, errors.New(f.failure)
	}
	return f.base.RoundTrip(req)
}

func TestARequestOnAConnectionTheServerClosedIsSentOnceMore(t *testing.T) {
	_, url := serveStreamable(t, fixtureTools(nil))
	for _, failure := range []string{
		"fetch failed: SocketError: other side closed", // the server's FIN
		"fetch failed: Error: read ECONNRESET",         // its RST
	} {
		t.Run(failure, func(t *testing.T) {
			p := NewPool(&Options{BaseTransport: &flakyBase{base: nethttp.Transport{}, failure: failure}})
			defer p.Cleanup(context.Background())
			m, _ := registerFixture(t, p, url, "")
			fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "hi"})
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			assert.Equal(t, int64(1), p.Stats().StaleRetries)
		})
	}
}

func TestProbeVerdicts(t *testing.T) {
	rpc := func(code int, data string) *jsonrpcErrorObj {
		return &jsonrpcErrorObj{Code: code, Message: "m", Data: json.RawMessage(data)}
	}
	cases := []struct {
		name   string
		result string
		err    *jsonrpcErrorObj
		want   probeVerdict
	}{
		{"a DiscoverResult naming 2026-07-28", `{"supportedVersions":["2026-07-28"],"capabilities":{}}`, nil, probeIsModern},
		{"a DiscoverResult naming only later versions", `{"supportedVersions":["2027-01-01"]}`, nil, probeIsLegacy},
		{"a result of another shape", `{"tools":[]}`, nil, probeIsLegacy},
		{"a result that is no object", `[1]`, nil, probeIsLegacy},
		{"-32022 naming 2026-07-28", "", rpc(-32022, `{"supported":["2026-07-28"],"requested":"x"}`), probeIsModern},
		{"-32022 naming only legacy versions", "", rpc(-32022, `{"supported":["2025-11-25"]}`), probeIsLegacy},
		{"-32022 without data", "", rpc(-32022, ``), probeIsLegacy},
		{"-32601: a modern server must serve server/discover", "", rpc(-32601, ``), probeIsLegacy},
		{"-32000 session not found", "", rpc(-32000, ``), probeIsLegacy},
		{"-32020", "", rpc(-32020, ``), probeIsLegacy},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, classifyProbeAnswer(json.RawMessage(tc.result), tc.err))
		})
	}
}

func TestProbeAnswersOverHTTP(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		modern  bool
		fails   bool
	}{
		{"404 HTML", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(404)
		}, false, false},
		{"405 no body", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(405) }, false, false},
		{"400 with a modern -32022", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"x","data":{"supported":["2026-07-28"]}}}`))
		}, true, false},
		{"200 text/plain", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("hello"))
		}, false, false},
		{"500: no verdict", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) }, false, true},
		{"401 without auth: no verdict", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(401) }, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(tc.handler)
			defer ts.Close()
			cfg := &ServerConfig{Name: "p", URL: ts.URL, Transport: TransportStreamableHTTP}
			s := newSession(cfg, newGuard(cfg, loopback().withDefaults(), nil))
			out := s.probe(withValue(context.Background(), &failureSink{}))
			if tc.fails {
				assert.Equal(t, probeFailed, out.verdict)
				assert.Error(t, out.err)
				return
			}
			assert.Equal(t, map[bool]probeVerdict{true: probeIsModern, false: probeIsLegacy}[tc.modern], out.verdict)
		})
	}
}

func TestWithMetaKeepsTheCallersMetaAndTheProtocolsWins(t *testing.T) {
	meta := modernMeta(&ClientHooks{Elicitation: fixedHook("e", `{"action":"cancel"}`)})
	got, err := withMeta(map[string]any{"name": "t", "_meta": map[string]any{"progressToken": "p1", metaProtocolVersion: "1999-01-01"}}, meta)
	require.NoError(t, err)
	var p struct {
		Name string                     `json:"name"`
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(got, &p))
	assert.Equal(t, "t", p.Name)
	assert.JSONEq(t, `"p1"`, string(p.Meta["progressToken"]))
	assert.JSONEq(t, `"2026-07-28"`, string(p.Meta[metaProtocolVersion]))
	assert.JSONEq(t, `{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}`, string(p.Meta[metaClientCapabilities]))
	assert.Contains(t, p.Meta, metaClientInfo)
	empty, err := withMeta(nil, meta)
	require.NoError(t, err)
	assert.True(t, json.Valid(empty))
	_, err = withMeta([]int{1}, meta)
	assert.Error(t, err, "params must be an object")
}
