package core

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// sigTool is a callable with a fixed signature, as the bridge's JS tools.
type sigTool struct{ sig Signature }

func (c sigTool) Signature() (Signature, error)                     { return c.sig, nil }
func (c sigTool) Call(_ context.Context, _ *Arguments) (any, error) { return nil, nil }

// fastManager registers tools of each kind the fast path meets: typed
// (lax and none, strict), and untyped with a signature.
func fastManager(t testing.TB) *Manager {
	m := NewManager(nil)
	kwargs := []Param{{Name: "kwargs", Kind: ParamKeywords}}
	add := func(name string, params []Param, o *ToolOptions) {
		o.Name = name
		tool, err := NewTool(sigTool{Signature{Name: name, Params: params}}, o)
		require.NoError(t, err)
		require.NoError(t, m.Register(tool, false))
	}
	add("search", kwargs, &ToolOptions{Parameters: json.RawMessage(typicalSchema)})
	add("exact", kwargs, &ToolOptions{Parameters: json.RawMessage(typicalSchema), Coerce: CoerceNone, StrictFuncCall: true})
	add("numbers", []Param{{Name: "a"}, {Name: "b", HasDefault: true}}, &ToolOptions{Parameters: json.RawMessage(
		`{"type":"object","properties":{"a":{"type":"number","multipleOf":0.5},"b":{"type":["boolean","null"]}},"required":["a"]}`)})
	add("raw", []Param{{Name: "a"}, {Name: "b", HasDefault: true}}, &ToolOptions{})
	add("open", kwargs, &ToolOptions{Parameters: json.RawMessage(`{"type":"object","additionalProperties":{"type":"integer"}}`)})
	return m
}

// envelopes wraps arguments (JSON text of an object) in each request shape.
func envelopes(fn, args string) []string {
	text := strconv.Quote(args)
	return []string{
		`{"function":"` + fn + `","arguments":` + args + `}`,
		`{"function":"` + fn + `","arguments":` + text + `}`,
		` {"arguments": ` + args + `, "function": "` + fn + `"} `,
		`{"id":"call_1","type":"function","function":{"name":"` + fn + `","arguments":` + text + `}}`,
		`{"type":"function_call","call_id":"c2","id":"i2","name":"` + fn + `","arguments":` + text + `}`,
		`{"type":"tool_use","id":"toolu_1","name":"` + fn + `","input":` + args + `}`,
		`{"name":"` + fn + `","args":` + args + `,"id":7}`,
		`{"functionCall":{"name":"` + fn + `","args":` + args + `}}`,
		`{"action_request":{"function":"` + fn + `","arguments":` + args + `}}`,
		`{"type":"other","function":{"name":"` + fn + `","arguments":` + args + `}}`,
		`{"function":"` + fn + `","arguments":` + args + `,"function":"x"}`,
		`{"function":5,"arguments":` + args + `}`,
		`{"function":"","arguments":` + args + `}`,
		`{"function":"` + fn + `"}`,
		`"` + fn + `"`,
	}
}

// compareMatch runs MatchFast and the full path on one request and fails t
// where they disagree; it reports whether the fast path answered.
func compareMatch(t *testing.T, m *Manager, payload string, validate bool) bool {
	t.Helper()
	fm, handled, ferr := m.MatchFast([]byte(payload), validate, func(*Tool) bool { return true })
	defer fm.Release()
	if !handled {
		return false
	}
	req, err := ParseRequest([]byte(payload))
	var fc *FunctionCalling
	if err == nil {
		if validate {
			fc, err = m.Validate(req)
		} else {
			fc, err = m.Match(req)
		}
	}
	if err != nil || ferr != nil {
		require.Error(t, ferr, "fast path accepted %s; full path: %v", payload, err)
		require.Error(t, err, "fast path refused %s (%v); full path accepted", payload, ferr)
		want, got := AsError(err), AsError(ferr)
		assert.Equal(t, want, got, "error for %s", payload)
		return true
	}
	text, bigints := jsText(fc.Arguments)
	assert.Same(t, fc.Tool, fm.Tool, "tool for %s", payload)
	assert.Equal(t, req.ID, fm.ID, "call id for %s", payload)
	assert.Equal(t, text, string(fm.Arguments), "arguments for %s", payload)
	assert.Equal(t, bigints, fm.BigInts, "big integers for %s", payload)
	assert.Equal(t, fc.Conversions, fm.Conversions, "conversions for %s", payload)
	return true
}

func TestMatchFastAgrees(t *testing.T) {
	m := fastManager(t)
	args := []string{
		`{"query":"go wasm","limit":10,"units":"metric","tags":["a","b"],"filter":{"value":"go","field":"lang"}}`,
		`{"query":"x","limit":"10","extra":{"z":1,"a":[9007199254740993]}}`,
		`{"query":"","limit":0}`,
		`{"query":"x"}`,
		`{"a":"2.5","b":"yes"}`, `{"a":1.25}`, `{"a":1,"b":null,"c":1}`, `{"a":1}`, `{"b":1}`, `{"x":"1","y":2.0}`, `{}`,
	}
	var answered, total int
	for _, fn := range []string{"search", "exact", "numbers", "raw", "open", "missing"} {
		for _, a := range args {
			for _, p := range envelopes(fn, a) {
				for _, validate := range []bool{false, true} {
					total++
					if compareMatch(t, m, p, validate) {
						answered++
					}
				}
			}
		}
	}
	g := &schemaGen{fixture.Choices{Seed: 42}}
	for i := 0; i < 500; i++ {
		a := string(g.arguments())
		for _, p := range envelopes(g.pick("search", "exact", "numbers", "raw", "open"), a)[:7] {
			total++
			if compareMatch(t, m, p, g.n(2) == 0) {
				answered++
			}
		}
	}
	t.Logf("the fast path answered %d of %d requests", answered, total)
}
