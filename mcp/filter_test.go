package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// annotated is a tool descriptor with these annotations (nil: none).
func annotated(name string, ann map[string]any) map[string]any {
	t := toolJSON(name)
	if ann != nil {
		t["annotations"] = ann
	}
	return t
}

// annotatedServer serves five tools covering the hint space: read (read-only,
// closed world), write (not destructive, idempotent, closed world), wipe
// (destructive, open world), bare (no annotations: spec defaults) and
// oddly (non-boolean hints: spec defaults too).
func annotatedServer(t *testing.T) *hostile {
	h := newHostile(t)
	h.toolsList = listOf(
		annotated("read", map[string]any{"title": "Read", "readOnlyHint": true, "destructiveHint": true, "openWorldHint": false}),
		annotated("write", map[string]any{"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
		annotated("wipe", map[string]any{"destructiveHint": true, "openWorldHint": true}),
		annotated("bare", nil),
		annotated("oddly", map[string]any{"readOnlyHint": "yes", "openWorldHint": 0}),
	)
	return h
}

func TestEffectiveHintsSpecDefaults(t *testing.T) {
	var none *Annotations
	assert.Equal(t, EffectiveHints{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true}, none.Effective(),
		"a tool without annotations must count as destructive and open-world")
	ro := &Annotations{ReadOnlyHint: bp(true), DestructiveHint: bp(true), IdempotentHint: bp(false)}
	assert.Equal(t, EffectiveHints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true}, ro.Effective(),
		"a read-only tool is neither destructive nor non-idempotent, whatever those hints say")
	_, odd := parseAnnotations(json.RawMessage(`{"readOnlyHint":"yes","destructiveHint":null,"openWorldHint":0}`))
	assert.Equal(t, EffectiveHints{Destructive: true, OpenWorld: true}, odd.Effective(), "non-boolean hints must fall back to the defaults")
	raw, a := parseAnnotations(json.RawMessage(`[1]`))
	assert.Nil(t, raw)
	assert.Nil(t, a)
}

func TestFilterMatrix(t *testing.T) {
	h := annotatedServer(t)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	cases := []struct {
		name   string
		filter *Filter
		want   []string
	}{
		{"no filter", nil, []string{"read", "write", "wipe", "bare", "oddly"}},
		{"allow exact", &Filter{Allow: []string{"read", "bare"}}, []string{"read", "bare"}},
		{"allow glob", &Filter{Allow: []string{"w*"}}, []string{"write", "wipe"}},
		{"allow ? glob", &Filter{Allow: []string{"w??e"}}, []string{"wipe"}},
		{"empty allow keeps none", &Filter{Allow: []string{}}, []string{}},
		{"block wins over allow", &Filter{Allow: []string{"*"}, Block: []string{"wipe", "o*"}}, []string{"read", "write", "bare"}},
		{"readOnly true", &Filter{ReadOnlyHint: bp(true)}, []string{"read"}},
		{"readOnly false (defaults included)", &Filter{ReadOnlyHint: bp(false)}, []string{"write", "wipe", "bare", "oddly"}},
		{"destructive false: read-only counts as not destructive", &Filter{DestructiveHint: bp(false)}, []string{"read", "write"}},
		{"destructive true: unannotated counts", &Filter{DestructiveHint: bp(true)}, []string{"wipe", "bare", "oddly"}},
		{"idempotent true", &Filter{IdempotentHint: bp(true)}, []string{"read", "write"}},
		{"openWorld false", &Filter{OpenWorldHint: bp(false)}, []string{"read", "write"}},
		{"openWorld true: defaults count", &Filter{OpenWorldHint: bp(true)}, []string{"wipe", "bare", "oddly"}},
		{"hints and names together", &Filter{Block: []string{"read"}, OpenWorldHint: bp(false)}, []string{"write"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := core.NewManager(nil)
			names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url},
				&RegisterOptions{Security: loopback(), Qualify: bp(false), Filter: tc.filter})
			require.NoError(t, err)
			assert.Equal(t, tc.want, names)
			assert.Len(t, m.Tools(), len(tc.want), "only the kept tools may be registered")
		})
	}
}

func TestFilterDropsBrokenAndCollidingTools(t *testing.T) {
	h := newHostile(t)
	broken := map[string]any{"name": "broken", "inputSchema": map[string]any{"type": "string"}}
	h.toolsList = listOf(toolJSON("good"), broken)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	cfg := &ServerConfig{Name: "s", URL: h.url}
	var warned []error
	names, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: loopback(),
		OnWarning: func(_ string, err error) { warned = append(warned, err) }})
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__s__good"}, names, "without a filter the broken tool is left out")
	require.Len(t, warned, 1)
	require.ErrorIs(t, warned[0], core.ErrInvalidSchema)

	names, err = RegisterServer(context.Background(), p, core.NewManager(nil), cfg, &RegisterOptions{Security: loopback(), Filter: &Filter{Block: []string{"broken"}},
		OnWarning: func(string, error) { t.Error("a filtered-out tool is not reported") }})
	require.NoError(t, err, "a filtered-out tool's bad schema must not refuse the server")
	assert.Equal(t, []string{"mcp__s__good"}, names)

	// A local tool named like the filtered-out one is no collision.
	m2 := core.NewManager(nil)
	fn, err := core.Func("mcp__s__broken", func() string { return "local" })
	require.NoError(t, err)
	local, err := core.NewTool(fn, nil)
	require.NoError(t, err)
	require.NoError(t, m2.Register(local, false))
	_, err = RegisterServer(context.Background(), p, m2, cfg, &RegisterOptions{Security: loopback(), Filter: &Filter{Allow: []string{"good"}}})
	require.NoError(t, err)

	// requestOptions may still name a filtered-out tool.
	_, err = RegisterServer(context.Background(), p, core.NewManager(nil), cfg, &RegisterOptions{Security: loopback(),
		Filter: &Filter{Allow: []string{"good"}}, RequestOptions: map[string]json.RawMessage{"broken": json.RawMessage(`{"type":"object"}`)}})
	require.NoError(t, err)
}

func TestFilterRefusals(t *testing.T) {
	h := annotatedServer(t)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	cfg := &ServerConfig{Name: "s", URL: h.url}
	for _, bad := range []string{"", "a b", "x[1]", "a/b", "tool\\"} {
		_, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: loopback(), Filter: &Filter{Block: []string{"ok", bad}}})
		var ce *core.Error
		require.True(t, errors.As(err, &ce), "pattern %q: got %v", bad, err)
		assert.Equal(t, core.CodeInvalidRequest, ce.Code)
		assert.Contains(t, ce.Message, "filter.block[1]")
	}
	before := h.requests.Load()
	_, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: loopback(),
		ToolNames: []string{"a"}, Filter: &Filter{ReadOnlyHint: bp(true)}})
	var ce *core.Error
	require.True(t, errors.As(err, &ce), "got %v", err)
	assert.Equal(t, core.CodeInvalidRequest, ce.Code)
	assert.Contains(t, ce.Message, "annotations")
	assert.Empty(t, m.Tools(), "nothing may be registered on a refusal")
	assert.Equal(t, before, h.requests.Load(), "a refusal must contact nobody")
}

func TestFilterDeclaredToolNames(t *testing.T) {
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: "http://127.0.0.1:1/mcp"}, &RegisterOptions{
		Security: loopback(), ToolNames: []string{"search", "delete_all", "get"}, Filter: &Filter{Block: []string{"delete_*"}},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__s__search", "mcp__s__get"}, names)
}

func TestLoadMcpConfigFilterAppliesToEveryServer(t *testing.T) {
	h1, h2 := annotatedServer(t), annotatedServer(t)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	data := []byte(`{"mcpServers":{"a":{"url":"` + h1.url + `"},"b":{"url":"` + h2.url + `"}}}`)
	_, names, err := LoadMcpConfig(context.Background(), p, m, data, &LoadOptions{Security: loopback(), Filter: &Filter{ReadOnlyHint: bp(true)}})
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{"a": {"mcp__a__read"}, "b": {"mcp__b__read"}}, names)

	_, _, err = LoadMcpConfig(context.Background(), p, core.NewManager(nil), data, &LoadOptions{Security: loopback(), Filter: &Filter{Allow: []string{"x y"}}})
	require.ErrorIs(t, err, core.ErrInvalidRequest, "a bad pattern must refuse the whole load")
}

// callCounter answers tools/call with "sent" and counts the calls; it
// keeps the last arguments the server received.
func callCounter(h *hostile) (*atomic.Int32, *atomic.Value) {
	var n atomic.Int32
	var last atomic.Value
	h.setCall(func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		n.Add(1)
		last.Store(string(m.Params))
		writeResult(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "sent"}}})
	})
	return &n, &last
}

// bp is a *bool.
func bp(b bool) *bool { return &b }
