package core

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// programTool is a typed tool of a JS-like callable taking any keyword.
func programTool(t *testing.T, schema string, coerce CoerceMode) *Tool {
	t.Helper()
	sig := Signature{Name: "t", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}
	tool, err := NewTool(sigCallable{sig}, &ToolOptions{Parameters: json.RawMessage(schema), Coerce: coerce})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func TestProgramExports(t *testing.T) {
	const typical = `{"type":"object","properties":{"query":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1},
		"order":{"enum":["asc","desc"]},"tags":{"type":"array","items":{"type":"string"}},
		"filter":{"type":"object","properties":{"field":{"type":"string"}},"required":["field"],"additionalProperties":false}},"required":["query","limit"]}`
	p := programTool(t, typical, CoerceNone).Program()
	if p == nil {
		t.Fatal("the typical schema exports nothing")
	}
	var prog evalProgram
	if err := json.Unmarshal(p, &prog); err != nil {
		t.Fatal(err)
	}
	if prog.V != ProgramVersion || strings.Join(prog.Known, ",") != "filter,limit,order,query,tags" || strings.Join(prog.Minimum, ",") != "query,limit" {
		t.Errorf("v %d, known %v, minimum %v", prog.V, prog.Known, prog.Minimum)
	}
	if prog.Subject != `the parameters schema of tool "t"` || prog.Limits.Issues != MaxIssues {
		t.Errorf("subject %q, limits %+v", prog.Subject, prog.Limits)
	}
	for _, c := range []struct {
		name, schema string
		coerce       CoerceMode
	}{
		{"lax with an integer (no lax export yet)", typical, CoerceLax},
		{"pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}}}`, CoerceNone},
		{"not", `{"type":"object","properties":{"a":{"not":{}}}}`, CoerceNone},
	} {
		if laxProgram(&coercePlan{}) != nil && c.coerce == CoerceLax {
			continue
		}
		if p := programTool(t, c.schema, c.coerce).Program(); p != nil {
			t.Errorf("%s: exported %s", c.name, p)
		}
	}
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"minimum":0.1,"maximum":0.1000000000000000055511151231257827021181583404541015625}}}`,
		`{"type":"object","properties":{"a":{"multipleOf":0.5,"enum":[[1],{"b":1.50}]}}}`,
	} {
		if programTool(t, schema, CoerceNone).Program() == nil {
			t.Errorf("%s exports nothing", schema)
		}
	}
	if p := programTool(t, `{"type":"object","properties":{"a":{"type":"string"}}}`, CoerceLax).Program(); p == nil {
		t.Error("a lax tool with no conversion possible exports nothing")
	}
}

func TestDecimalText(t *testing.T) {
	for s, want := range map[string]string{"1": "1", "1.50": "15e-1", "-0": "0", "1e2": "1e2", "0.001": "1e-3", "-120": "-12e1"} {
		if got := parseDecimal([]byte(s)).text(); got != want {
			t.Errorf("%s: %s, want %s", s, got, want)
		}
	}
}

// sigCallable is a callable with a fixed signature that is never called.
type sigCallable struct{ sig Signature }

func (c sigCallable) Signature() (Signature, error) { return c.sig, nil }

func (c sigCallable) Call(_ context.Context, _ *Arguments) (any, error) { return nil, nil }
