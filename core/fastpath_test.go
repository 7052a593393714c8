package core

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// fastOutcome is what the fast path made of one arguments object.
type fastOutcome struct {
	handled bool
	err     error
	out     string
	bigints []string
	convs   []Conversion
}

// runFast runs the fast path of cs on an arguments object, as MatchFast
// does once it has found the tool.
func runFast(cs *CompiledSchema, args []byte, mode CoerceMode) fastOutcome {
	r := new(fastRun)
	r.reset()
	end, ok := r.tape.Parse(args, MaxArgumentDepth)
	if !ok || !jsontext.OnlySpace(args[end:]) || r.tape.Tokens[0].Kind != jsontext.TokObject || cs.parts().fast == nil {
		return fastOutcome{}
	}
	r.src, r.root = args, 0
	if mode == "" {
		mode = CoerceLax
	}
	handled, err := cs.fastNormalize(r, "fuzz", mode)
	if !handled || err != nil {
		return fastOutcome{handled: handled, err: err}
	}
	r.emit()
	return fastOutcome{handled: true, out: string(r.out), bigints: r.bigints, convs: r.convs}
}

// jsText writes normalised arguments as the bridge writes them for JS
// (jsbridge's appendJSArguments), for comparing with the fast path.
func jsText(args *Arguments) (string, []string) {
	var bigints []string
	var write func(b []byte, v any, path string) []byte
	write = func(b []byte, v any, path string) []byte {
		switch x := v.(type) {
		case json.Number:
			if jsontext.BigInteger([]byte(x)) && jsontext.IsIntegerText(string(x)) {
				bigints = append(bigints, path)
				return strconv.AppendQuote(b, string(x))
			}
			return append(b, x...)
		case []any:
			b = append(b, '[')
			for i, e := range x {
				if i > 0 {
					b = append(b, ',')
				}
				b = write(b, e, path+"/"+strconv.Itoa(i))
			}
			return append(b, ']')
		case map[string]any:
			b = append(b, '{')
			for i, k := range mapKeysSorted(x) {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(jsontext.AppendString(b, k), ':')
				b = write(b, x[k], path+"/"+jsontext.Escape(k))
			}
			return append(b, '}')
		}
		data, _ := jsontext.Marshal(v)
		return append(b, data...)
	}
	b := []byte{'{'}
	for i, k := range args.Keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsontext.AppendString(b, k), ':')
		b = write(b, args.Values[k], "/"+jsontext.Escape(k))
	}
	return string(append(b, '}')), bigints
}

// compareFast runs the full and the fast path on one arguments object and
// fails t where they disagree. It reports whether the fast path answered.
func compareFast(t testing.TB, cs *CompiledSchema, args []byte, mode CoerceMode) bool {
	t.Helper()
	fast := runFast(cs, args, mode)
	decoded, derr := DecodeArguments("fuzz", args)
	if !fast.handled {
		return false
	}
	require.NoError(t, derr, "the fast path read arguments the full path refuses: %s", args)
	out, convs, err := cs.Normalize("fuzz", decoded, mode)
	if err != nil || fast.err != nil {
		require.Error(t, fast.err, "fast path accepted %s (%s), full path: %v", args, fast.out, err)
		require.Error(t, err, "fast path refused %s: %v; full path accepted", args, fast.err)
		want, got := AsError(err), AsError(fast.err)
		assert.Equal(t, want.Code, got.Code, "code for %s", args)
		assert.Equal(t, want.Issues, got.Issues, "issues for %s", args)
		assert.Equal(t, want.Message, got.Message, "message for %s", args)
		return true
	}
	text, bigints := jsText(out)
	assert.Equal(t, text, fast.out, "arguments for %s", args)
	assert.Equal(t, bigints, fast.bigints, "big integers for %s", args)
	assert.Equal(t, convs, fast.convs, "conversions for %s", args)
	return true
}

// typicalSchema is the typical tool of the fast path's goal: five fields.
const typicalSchema = `{"type":"object","properties":{
	"query":{"type":"string","minLength":1},
	"limit":{"type":"integer","minimum":1},
	"units":{"enum":["metric","imperial"]},
	"tags":{"type":"array","items":{"type":"string"}},
	"filter":{"type":"object","properties":{"field":{"type":"string"},"value":{"type":"string"}},"required":["field"],"additionalProperties":false}
},"required":["query","limit"]}`

func TestFastPathTypical(t *testing.T) {
	cs, err := CompileSchema("search", json.RawMessage(typicalSchema))
	require.NoError(t, err)
	require.NotNil(t, cs.parts().fast, "the typical schema is covered")
	cases := []string{
		`{"query":"go wasm","limit":10,"units":"metric","tags":["a","b"],"filter":{"value":"go","field":"lang"}}`,
		`{"query":"","limit":0,"units":"si","tags":[1,"b"],"filter":{"value":"go","other":1}}`,
		`{"query":"x","limit":"10","extra":true}`,
		`{"query":"x","limit":"ten"}`,
		`{"query":"x","limit":10.0,"tags":["\u00e9\n\ud83d\ude00","\u2028"]}`,
		`{"query":"x","limit":9007199254740993,"units":"imperial"}`,
		`{"query":"x","limit":1e1001}`,
		`{"query":"x","limit":1.5e1001}`,
		`{"query":5,"limit":null,"filter":[]}`,
		`{}`,
	}
	for _, c := range cases {
		for _, mode := range []CoerceMode{CoerceLax, CoerceNone} {
			assert.True(t, compareFast(t, cs, []byte(c), mode), "fast path answers %s", c)
		}
	}
}

func TestFastPathDeclines(t *testing.T) {
	for _, s := range []string{
		`{"not":{"type":"string"}}`,
		`{"if":{"type":"string"},"then":{"minLength":1}}`,
		`{"properties":{"a":{"dependentRequired":{"b":["c"]}}}}`,
		`{"unevaluatedProperties":false}`,
		`{"$defs":{"a":{"$id":"x","type":"string"}},"$ref":"#/$defs/a"}`,
		`{"anyOf":[{"type":"string","minLength":1},{"type":"string","maxLength":0}]}`,
		`{"$schema":"http://json-schema.org/draft-06/schema#"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","prefixItems":[{"type":"string"}]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#/definitions/s","type":"integer"}},"definitions":{"s":{"type":"string"}}}`,
		`{"patternProperties":{"^a":{"type":"string"}}}`,
	} {
		cs, err := CompileSchema("t", json.RawMessage(s))
		require.NoError(t, err, s)
		assert.Nil(t, cs.parts().fast, "declines %s", s)
	}
	for _, s := range []string{
		`{"anyOf":[{"type":"string","minLength":1},{"type":"null"}]}`,
		`{"oneOf":[{"type":"integer"},{"type":"number"}]}`,
		`{"$defs":{"n":{"properties":{"c":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`,
		`{"type":"object","properties":{"a":{"format":"email","title":"A","x-extra":1}}}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"$ref":"#/definitions/s","description":"d"}},"definitions":{"s":{"type":"string"}}}`,
	} {
		cs, err := CompileSchema("t", json.RawMessage(s))
		require.NoError(t, err, s)
		assert.NotNil(t, cs.parts().fast, "covers %s", s)
	}
}

// FuzzFastPath: on generated schemas and arguments, the fast path gives
// the full path's verdict, issues (path, keyword and message), normalised
// arguments, big integers and conversions, or declines; and a compile it
// defers (see sureValid) succeeds.
func FuzzFastPath(f *testing.F) {
	for _, seed := range []string{"typical", "\x00\x01\x02\x03", "recursive\xff\xfe", "unions and numbers 1e400"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &schemaGen{fixture.Choices{Src: data}}
		schema, args := g.schema(), g.arguments()
		checkSure(t, schema)
		cs, err := CompileSchema("fuzz", schema)
		if err != nil || cs.parts().fast == nil {
			return
		}
		for _, mode := range []CoerceMode{CoerceLax, CoerceNone} {
			compareFast(t, cs, args, mode)
		}
	})
}

// TestFastPathGenerated runs the fuzz target's generator over many inputs
// with a plain go test, and counts how often the fast path answers.
func TestFastPathGenerated(t *testing.T) {
	var compiled, covered, answered, total int
	for i := 0; i < 3000; i++ {
		g := &schemaGen{fixture.Choices{Seed: uint64(i) * 0x2545f4914f6cdd1d}}
		schema, args := g.schema(), g.arguments()
		cs, err := CompileSchema("fuzz", schema)
		if err != nil {
			continue
		}
		compiled++
		if cs.parts().fast == nil {
			continue
		}
		covered++
		for _, mode := range []CoerceMode{CoerceLax, CoerceNone} {
			total++
			if compareFast(t, cs, args, mode) {
				answered++
			}
		}
		if t.Failed() {
			t.Fatalf("schema %s\narguments %s", schema, args)
		}
	}
	t.Logf("%d schemas compiled, %d covered by the fast path, %d of %d runs answered", compiled, covered, answered, total)
}

// fastValidateValue validates any JSON value on the fast path, without
// coercion, as validateValue does; false when the fast path cannot tell.
func fastValidateValue(cs *CompiledSchema, data []byte) (*Error, bool) {
	r := new(fastRun)
	r.reset()
	end, ok := r.tape.Parse(data, MaxArgumentDepth)
	if !ok || !jsontext.OnlySpace(data[end:]) || cs.parts().fast == nil {
		return nil, false
	}
	r.src, r.root = data, 0
	if !r.numbersSafe() {
		r.unsafeNumbers(0)
	} else if r.check(cs.parts().fast.root, 0, false); r.bail {
		return nil, false
	}
	if len(r.issues) == 0 {
		return nil, true
	}
	return argumentsError("suite", sortIssues(r.issues)), true
}
