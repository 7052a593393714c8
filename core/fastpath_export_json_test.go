package core

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/internal/fixture"
)

// checkProgramJSON holds the program's hand-made writer to json.Marshal,
// byte for byte, for the tool's program in both coercion modes.
func checkProgramJSON(t *testing.T, schema string) (checked, lax int) {
	t.Helper()
	for _, mode := range []CoerceMode{CoerceNone, CoerceLax} {
		sig := Signature{Name: "t", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}
		tool, err := NewTool(sigCallable{sig}, &ToolOptions{Parameters: json.RawMessage(schema), Coerce: mode})
		if err != nil {
			return checked, lax
		}
		p := tool.programData()
		if p == nil {
			continue
		}
		got, ok := p.appendJSON(nil)
		want, err := json.Marshal(p)
		if !ok || err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s (%s):\ngot  %s\nwant %s (%v)", schema, mode, got, want, err)
		}
		checked++
		if p.Lax != nil {
			lax++
		}
	}
	return checked, lax
}

func TestProgramJSON(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","properties":{"query":{"type":"string","minLength":1,"maxLength":9},"limit":{"type":"integer","minimum":1,"exclusiveMaximum":1e3},
			"order":{"enum":["asc","<b>&amp;","\u2028\u2029","\u0000\b\f\n\r\t\u001f\u007f",""]},"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true},
			"filter":{"type":"object","properties":{"field":{"type":"string"}},"required":["field"],"additionalProperties":false,"minProperties":1,"maxProperties":2}},
			"required":["query","limit"]}`,
		`{"type":"object","properties":{"a":{"const":""},"b":{"const":"x<y"},"c":{"multipleOf":0.5},"d":{"type":["string","null"]}}}`,
		`{"type":"object","properties":{"t":{"type":"array","prefixItems":[{"type":"integer"},{"type":"number"}],"items":false}},"additionalProperties":{"type":"integer"}}`,
		`{"type":"object","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"properties":{"n":{"$ref":"#/$defs/n"},
			"u":{"anyOf":[{"type":"integer"},{"type":"boolean"}]},"l":{"allOf":[{"type":"number"},{"minimum":0}]}}}`,
		`{"type":"object","properties":{"é\u2028":{"type":"integer"},"<&>":{"type":"boolean"}},"required":["é\u2028"]}`,
	} {
		if n, _ := checkProgramJSON(t, schema); n == 0 {
			t.Errorf("%s: no program", schema)
		}
	}
	checked, lax := 0, 0
	for i := 0; i < 300; i++ {
		g := &schemaGen{fixture.Choices{Seed: uint64(i) * 0x2545f4914f6cdd1d}}
		c, l := checkProgramJSON(t, string(g.schema()))
		checked, lax = checked+c, lax+l
	}
	if checked < 100 || lax < 20 {
		t.Errorf("the generated schemas gave %d programs, %d with a lax program: too few to compare", checked, lax)
	}
	t.Logf("%d generated programs, %d with a lax program", checked, lax)
}

func TestMarshalString(t *testing.T) {
	for _, s := range []string{"", "plain", "<>&\"\\", "\x00\x1f\x7f\b\f\n\r\t", "é\u2028\u2029😀", "bad \xff\xfe utf8 \xe2\x80", "\xed\xa0\x80"} {
		want, _ := json.Marshal(s)
		if got := appendMarshalString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
