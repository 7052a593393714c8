package core

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// precheckTool is a typed tool of a JS-like callable taking any keyword.
func precheckTool(t *testing.T, schema string, coerce CoerceMode) *Tool {
	t.Helper()
	sig := Signature{Name: "t", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}
	tool, err := NewTool(sigCallable{sig}, &ToolOptions{Parameters: json.RawMessage(schema), Coerce: coerce})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func TestPrecheckExports(t *testing.T) {
	const typical = `{"type":"object","properties":{"query":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1},
		"order":{"enum":["asc","desc"]},"tags":{"type":"array","items":{"type":"string"}},
		"filter":{"type":"object","properties":{"field":{"type":"string"}},"required":["field"],"additionalProperties":false}},"required":["query","limit"]}`
	p := precheckTool(t, typical, CoerceNone).Precheck()
	if p == nil {
		t.Fatal("the typical schema exports nothing")
	}
	var prog precheckProgram
	if err := json.Unmarshal(p, &prog); err != nil {
		t.Fatal(err)
	}
	if strings.Join(prog.Known, ",") != "filter,limit,order,query,tags" || strings.Join(prog.Minimum, ",") != "query,limit" {
		t.Errorf("known %v, minimum %v", prog.Known, prog.Minimum)
	}
	for _, c := range []struct {
		name, schema string
		coerce       CoerceMode
	}{
		{"lax with an integer", typical, CoerceLax},
		{"default coerce with an integer", typical, ""},
		{"pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}}}`, CoerceNone},
		{"inexact bound", `{"type":"object","properties":{"a":{"minimum":0.1}}}`, CoerceNone},
		{"long literal of a double", `{"type":"object","properties":{"a":{"maximum":0.1000000000000000055511151231257827021181583404541015625}}}`, CoerceNone},
		{"bound beyond 2^53", `{"type":"object","properties":{"a":{"maximum":9007199254740993}}}`, CoerceNone},
		{"fractional multipleOf", `{"type":"object","properties":{"a":{"multipleOf":0.5}}}`, CoerceNone},
		{"composite enum", `{"type":"object","properties":{"a":{"enum":[[1]]}}}`, CoerceNone},
		{"not", `{"type":"object","properties":{"a":{"not":{}}}}`, CoerceNone},
	} {
		if p := precheckTool(t, c.schema, c.coerce).Precheck(); p != nil {
			t.Errorf("%s: exported %s", c.name, p)
		}
	}
	if p := precheckTool(t, `{"type":"object","properties":{"a":{"type":"string"}}}`, CoerceLax).Precheck(); p == nil {
		t.Error("a lax tool with no conversion possible exports nothing")
	}
}

func TestShortestDouble(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "0.5": true, "2.50": true, "1e2": true, "-0.25": true, "0": true, "-0": true, "1e-7": false,
		"0.1": false, "9007199254740991": true, "9007199254740992": false, "0.30000000000000004": false,
	} {
		if _, ok := shortestDouble(parseDecimal([]byte(s))); ok != want {
			t.Errorf("%s: %v, want %v", s, ok, want)
		}
	}
}

// sigCallable is a callable with a fixed signature that is never called.
type sigCallable struct{ sig Signature }

func (c sigCallable) Signature() (Signature, error) { return c.sig, nil }

func (c sigCallable) Call(_ context.Context, _ *Arguments) (any, error) { return nil, nil }
