package core

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/toolgate/toolgate/internal/jsontext"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeCallable is a Callable with a given signature; by default Call
// returns the arguments it received.
type fakeCallable struct {
	sig    Signature
	sigErr error
	call   func(ctx context.Context, args *Arguments) (any, error)
	calls  atomic.Int32
}

func (f *fakeCallable) Signature() (Signature, error) { return f.sig, f.sigErr }

func (f *fakeCallable) Call(ctx context.Context, args *Arguments) (any, error) {
	f.calls.Add(1)
	if f.call != nil {
		return f.call(ctx, args)
	}
	return args, nil
}

func plain(names ...string) []Param {
	ps := make([]Param, len(names))
	for i, n := range names {
		ps[i] = Param{Name: n}
	}
	return ps
}

// schemaFor writes a provider schema with the given parameters JSON.
func schemaFor(name, params string) json.RawMessage {
	if params == "" {
		return json.RawMessage(`{"type":"function","function":{"name":"` + name + `"}}`)
	}
	return json.RawMessage(`{"type":"function","function":{"name":"` + name + `","parameters":` + params + `}}`)
}

// mustTool builds a tool or fails the test.
func mustTool(t *testing.T, c Callable, opts *ToolOptions) *Tool {
	t.Helper()
	tool, err := NewTool(c, opts)
	require.NoError(t, err)
	return tool
}

func TestNewToolRefuses(t *testing.T) {
	good := &fakeCallable{sig: Signature{Name: "f", Params: plain("a")}}
	tests := []struct {
		name string
		c    Callable
		opts *ToolOptions
		want error
	}{
		{"nil callable", nil, nil, ErrInvalidTool},
		{"nil pointer callable", (*fakeCallable)(nil), nil, ErrInvalidTool},
		{"unknown schema mode", good, &ToolOptions{SchemaMode: "exact"}, ErrInvalidTool},
		{"unknown coerce", good, &ToolOptions{Coerce: "strict"}, ErrInvalidTool},
		{"negative timeout", good, &ToolOptions{Timeout: -time.Second}, ErrInvalidTool},
		{"signature error", &fakeCallable{sigErr: errors.New("no source")}, nil, ErrInvalidTool},
		{"signature *Error kept", &fakeCallable{sigErr: Errorf(CodeUnsupportedType, "", "x")}, nil, ErrUnsupportedType},
		{"signature panics", panicSignature{}, nil, ErrInternal},
		{"no name", &fakeCallable{sig: Signature{Params: plain("a")}}, nil, ErrInvalidTool},
		{"schema not JSON", good, &ToolOptions{Schema: json.RawMessage(`{"type":`)}, ErrInvalidTool},
		{"schema an array", good, &ToolOptions{Schema: json.RawMessage(`[1]`)}, ErrInvalidTool},
		{"schema without function", good, &ToolOptions{Schema: json.RawMessage(`{"type":"function"}`)}, ErrInvalidTool},
		{"schema function not object", good, &ToolOptions{Schema: json.RawMessage(`{"function":"f"}`)}, ErrInvalidTool},
		{"schema name missing", good, &ToolOptions{Schema: json.RawMessage(`{"function":{}}`)}, ErrInvalidTool},
		{"schema name empty", good, &ToolOptions{Schema: json.RawMessage(`{"function":{"name":""}}`)}, ErrInvalidTool},
		{"schema name not string", good, &ToolOptions{Schema: json.RawMessage(`{"function":{"name":5}}`)}, ErrInvalidTool},
		{"parameters an array", good, &ToolOptions{Parameters: json.RawMessage(`[]`)}, ErrInvalidSchema},
		{"parameters true", good, &ToolOptions{Parameters: json.RawMessage(`true`)}, ErrInvalidSchema},
		{"parameters malformed", good, &ToolOptions{Parameters: json.RawMessage(`{"type":`)}, ErrInvalidSchema},
		{"parameters bad type", good, &ToolOptions{Parameters: json.RawMessage(`{"type":"nope"}`)}, ErrInvalidSchema},
		{"parameters remote ref", good, &ToolOptions{Parameters: json.RawMessage(`{"$ref":"https://example.com/s.json"}`)}, ErrInvalidSchema},
		{"parameters with schema", good, &ToolOptions{Schema: schemaFor("f", ""), Parameters: json.RawMessage(`{"type":"nope"}`)}, ErrInvalidSchema},
		{"schema parameters bad", good, &ToolOptions{Schema: schemaFor("f", `{"type":"nope"}`)}, ErrInvalidSchema},
		{"schema parameters file ref", good, &ToolOptions{Schema: schemaFor("f", `{"$ref":"file:///etc/passwd"}`)}, ErrInvalidSchema},
		{"docstring refused", &fakeCallable{sig: Signature{Name: "f", Doc: "Do.\n\nArgs:\n    no colon first\n", Params: plain("a")}}, nil, ErrInvalidTool},
		{"docstring style refused", good, &ToolOptions{DocstringStyle: "numpy"}, ErrInvalidTool},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool, err := NewTool(tc.c, tc.opts)
			require.Error(t, err)
			assert.Nil(t, tool)
			assert.ErrorIs(t, err, tc.want, "got %v, want %v", err, tc.want.(*Error).Code)
			var e *Error
			assert.ErrorAs(t, err, &e, "every error is an *Error")
		})
	}
}

func TestNewToolSchemaKeptAsGiven(t *testing.T) {
	schema := "  {\"function\": {\"name\":\"search\", \"description\": \"a < b & c\",\n \"parameters\": {\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}, \"type\":\"function\"}\n"
	c := &fakeCallable{sigErr: errors.New("no signature")}
	tool := mustTool(t, c, &ToolOptions{Schema: json.RawMessage(schema), Description: "ignored", Strict: true})
	assert.Equal(t, schema[2:len(schema)-1], string(tool.Schema), "got %s, want the schema byte for byte", tool.Schema)
	assert.Equal(t, "search", tool.Function())
	assert.Nil(t, tool.RequestOptions, "a supplied schema's parameters do not drive validation")
	assert.Equal(t, []string{}, tool.MinimumAcceptableFields(), "a signature error gives no minimum fields")
}

func TestNewToolRenamesSchema(t *testing.T) {
	schema := `{"type":"function","function":{"description":"d <x>","name":"a","parameters":{"type":"object","properties":{}}}}`
	tool := mustTool(t, HandlerFunc("h", func(context.Context, *Arguments) (any, error) { return nil, nil }),
		&ToolOptions{Name: "b", Schema: json.RawMessage(schema)})
	want := `{"type":"function","function":{"description":"d <x>","name":"b","parameters":{"type":"object","properties":{}}}}`
	assert.Equal(t, want, string(tool.Schema))
	assert.Equal(t, "b", tool.Function())

	same := mustTool(t, &fakeCallable{}, &ToolOptions{Name: "a", Schema: json.RawMessage(schema)})
	assert.Equal(t, schema, string(same.Schema), "renaming to the same name changes nothing")
}

func TestNewToolDerivesSchema(t *testing.T) {
	h := HandlerFunc("proxy", func(context.Context, *Arguments) (any, error) { return nil, nil })
	tool := mustTool(t, h, nil)
	assert.JSONEq(t, `{"type":"function","function":{"name":"proxy","description":null,
		"parameters":{"type":"object","properties":{"kwargs":{"type":"string","description":null}},"required":["kwargs"]},
		"strict":null}}`, string(tool.Schema))
	assert.Equal(t, []string{}, tool.MinimumAcceptableFields(), "kwargs is removed by name")
	assert.Equal(t, CoerceLax, tool.Coerce, "coerce defaults to lax")
	assert.False(t, tool.StrictFuncCall)

	renamed := mustTool(t, h, &ToolOptions{Name: "other", Description: "Does things.", Strict: true})
	assert.Equal(t, "other", renamed.Function())
	assert.Contains(t, string(renamed.Schema), `"description":"Does things."`)
	assert.Contains(t, string(renamed.Schema), `"strict":true`)

	params := `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`
	typed := mustTool(t, h, &ToolOptions{Parameters: json.RawMessage(" " + params + " ")})
	assert.Equal(t, params, string(typed.RequestOptions))
	assert.JSONEq(t, params, string(mustParams(t, typed.Schema)))
	assert.Equal(t, []string{"q"}, typed.MinimumAcceptableFields())

	for _, empty := range []string{"null", "{}", " { } ", ""} {
		raw := mustTool(t, h, &ToolOptions{Parameters: json.RawMessage(empty)})
		assert.Nil(t, raw.RequestOptions, "parameters %q select the raw path", empty)
	}
}

func mustParams(t *testing.T, schema json.RawMessage) json.RawMessage {
	t.Helper()
	p, ok := schemaParameters(schema)
	require.True(t, ok, "schema %s has function.parameters", schema)
	return p
}

func TestNewToolFieldsAndCopies(t *testing.T) {
	meta := map[string]any{"owner": "me"}
	preKw := map[string]any{"k": 1}
	opts := &ToolOptions{Metadata: meta, PreprocessorKwargs: preKw, StrictFuncCall: true, Coerce: CoerceNone, Timeout: time.Second,
		Schema: schemaFor("f", "")}
	before := epochSeconds()
	tool := mustTool(t, &fakeCallable{}, opts)
	after := epochSeconds()
	meta["owner"] = "you"
	preKw["k"] = 2
	opts.Name = "changed"
	assert.Equal(t, "me", tool.Metadata["owner"], "metadata is copied on entry")
	assert.Equal(t, 1, tool.PreprocessorKwargs["k"], "kwargs are copied on entry")
	assert.Equal(t, "f", tool.Function())
	assert.True(t, tool.StrictFuncCall)
	assert.Equal(t, CoerceNone, tool.Coerce)
	assert.Equal(t, time.Second, tool.Timeout)
	assert.NotNil(t, tool.PostprocessorKwargs)
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`), tool.ID)
	assert.GreaterOrEqual(t, tool.CreatedAt, before)
	assert.LessOrEqual(t, tool.CreatedAt, after)

	other := mustTool(t, &fakeCallable{}, opts)
	assert.NotEqual(t, tool.ID, other.ID, "ids are random")
}

func TestFunctionName(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   string
	}{
		{"ok", `{"function":{"name":"x"}}`, "x"},
		{"nil", ``, ""},
		{"not object", `[]`, ""},
		{"no function", `{"name":"x"}`, ""},
		{"name not string", `{"function":{"name":1}}`, ""},
		{"exact key", `{"Function":{"name":"x"}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool := &Tool{Schema: json.RawMessage(tc.schema)}
			assert.Equal(t, tc.want, tool.Function())
		})
	}
	var nilTool *Tool
	assert.Equal(t, "", nilTool.Function())
}

func TestRequiredFields(t *testing.T) {
	tests := []struct {
		name   string
		schema json.RawMessage
		want   []string
	}{
		{"schema order", schemaFor("f", `{"type":"object","required":["b","a"]}`), []string{"b", "a"}},
		{"repeats dropped", schemaFor("f", `{"type":"object","required":["a","b","a"]}`), []string{"a", "b"}},
		{"empty", schemaFor("f", `{"type":"object","required":[]}`), []string{}},
		{"no required", schemaFor("f", `{"type":"object","properties":{}}`), nil},
		{"no parameters", schemaFor("f", ""), nil},
		{"null parameters", schemaFor("f", "null"), nil},
		{"required not array", schemaFor("f", `{"required":"a"}`), nil},
		{"required not strings", schemaFor("f", `{"required":[1]}`), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool := &Tool{Schema: tc.schema}
			got, err := tool.RequiredFields()
			if tc.want == nil {
				assert.ErrorIs(t, err, ErrInvalidSchema, "got %v, want invalid-schema", err)
				assert.Contains(t, err.Error(), "f")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestMinimumAcceptableFields(t *testing.T) {
	tests := []struct {
		name   string
		params []Param
		sigErr error
		want   []string
	}{
		{"plain without default", []Param{{Name: "a"}, {Name: "b", HasDefault: true}}, nil, []string{"a"}},
		{"names args kwargs kw removed", []Param{{Name: "x"}, {Name: "args", Kind: ParamRest}, {Name: "kwargs", Kind: ParamKeywords}, {Name: "kw"}}, nil, []string{"x"}},
		{"rest and keywords by other names stay", []Param{{Name: "items", Kind: ParamRest}, {Name: "options", Kind: ParamKeywords}}, nil, []string{"items", "options"}},
		{"plain named args removed", []Param{{Name: "args"}, {Name: "y"}}, nil, []string{"y"}},
		{"destructured fields", []Param{{Name: "{a, b}", Kind: ParamDestructured, Fields: []Param{{Name: "a"}, {Name: "b", HasDefault: true}, {Name: "kw"}}}}, nil, []string{"a"}},
		{"destructured with default", []Param{{Name: "{a}", Kind: ParamDestructured, HasDefault: true, Fields: []Param{{Name: "a"}}}}, nil, []string{}},
		{"all defaults", []Param{{Name: "a", HasDefault: true}}, nil, []string{}},
		{"signature error", nil, errors.New("cannot inspect"), []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeCallable{sig: Signature{Name: "f", Params: tc.params}, sigErr: tc.sigErr}
			tool := mustTool(t, c, &ToolOptions{Schema: schemaFor("f", "")})
			assert.Equal(t, tc.want, tool.MinimumAcceptableFields())

			literal := &Tool{Callable: c, Schema: schemaFor("f", "")}
			assert.Equal(t, tc.want, literal.MinimumAcceptableFields(), "a Tool literal reads the signature itself")
		})
	}
}

func TestMinimumAcceptableFieldsTyped(t *testing.T) {
	c := &fakeCallable{sig: Signature{Name: "f", Params: plain("a", "b")}}
	typed := mustTool(t, c, &ToolOptions{Parameters: json.RawMessage(`{"type":"object","properties":{"x":{},"y":{}},"required":["y","x"]}`)})
	assert.Equal(t, []string{"y", "x"}, typed.MinimumAcceptableFields(), "a typed tool uses its schema's required, not the signature")

	none := mustTool(t, c, &ToolOptions{Parameters: json.RawMessage(`{"type":"object","properties":{"x":{}}}`)})
	assert.Equal(t, []string{}, none.MinimumAcceptableFields())

	noCallable := &Tool{Schema: schemaFor("f", "")}
	assert.Equal(t, []string{}, noCallable.MinimumAcceptableFields())

	panicky := &Tool{Schema: schemaFor("f", ""), Callable: &panicSignature{}}
	assert.Equal(t, []string{}, panicky.MinimumAcceptableFields(), "a panicking Signature counts as a signature error")
}

type panicSignature struct{}

func (panicSignature) Signature() (Signature, error)                 { panic("sig") }
func (panicSignature) Call(context.Context, *Arguments) (any, error) { return nil, nil }

func TestValidateArguments(t *testing.T) {
	sig := Signature{Name: "f", Params: []Param{{Name: "a"}, {Name: "b", HasDefault: true}}}
	raw := schemaFor("f", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	typedParams := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}},"required":["n"]}`)
	tests := []struct {
		name     string
		opts     ToolOptions
		args     string
		want     string // JSON of the resulting arguments, "" when an error is wanted
		wantErr  error
		wantConv int
	}{
		{"non-strict minimum present", ToolOptions{Schema: raw}, `{"a":1}`, `{"a":1}`, nil, 0},
		{"non-strict extra keys pass", ToolOptions{Schema: raw}, `{"a":1,"zzz":2}`, `{"a":1,"zzz":2}`, nil, 0},
		{"non-strict missing", ToolOptions{Schema: raw}, `{"b":1}`, "", ErrInvalidArguments, 0},
		{"strict exact keys", ToolOptions{Schema: raw, StrictFuncCall: true}, `{"b":2,"a":1}`, `{"b":2,"a":1}`, nil, 0},
		{"strict optional omitted", ToolOptions{Schema: raw, StrictFuncCall: true}, `{"a":1}`, "", ErrInvalidArguments, 0},
		{"strict extra key", ToolOptions{Schema: raw, StrictFuncCall: true}, `{"a":1,"b":2,"c":3}`, "", ErrInvalidArguments, 0},
		{"strict without required", ToolOptions{Schema: schemaFor("f", `{"type":"object"}`), StrictFuncCall: true}, `{"a":1}`, "", ErrInvalidSchema, 0},
		{"typed coerces", ToolOptions{Parameters: typedParams}, `{"n":"5"}`, `{"n":5}`, nil, 1},
		{"typed drops unknown", ToolOptions{Parameters: typedParams}, `{"n":1,"other":true}`, `{"n":1}`, nil, 0},
		{"typed no coercion", ToolOptions{Parameters: typedParams, Coerce: CoerceNone}, `{"n":"5"}`, "", ErrInvalidArguments, 0},
		{"typed missing required", ToolOptions{Parameters: typedParams}, `{"s":"x"}`, "", ErrInvalidArguments, 0},
		{"typed minimum is schema's", ToolOptions{Parameters: typedParams}, `{"n":1}`, `{"n":1}`, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			tool := mustTool(t, &fakeCallable{sig: sig}, &opts)
			in := argsOf(t, tc.args)
			got, conv, err := tool.ValidateArguments(in)
			if tc.want == "" {
				assert.ErrorIs(t, err, tc.wantErr, "got %v, want %v", err, tc.wantErr)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			b, err := json.Marshal(got)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(b), "got %s, want %s", b, tc.want)
			assert.Len(t, conv, tc.wantConv)
			assert.NotSame(t, in, got, "the input is not returned")
			b, _ = json.Marshal(in)
			assert.JSONEq(t, tc.args, string(b), "the input is unchanged")
		})
	}
}

func TestValidateArgumentsNilAndLiteral(t *testing.T) {
	tool := mustTool(t, &fakeCallable{sig: Signature{Name: "f"}}, &ToolOptions{Schema: schemaFor("f", "")})
	_, _, err := tool.ValidateArguments(nil)
	assert.ErrorIs(t, err, ErrInvalidRequest)

	literal := &Tool{Schema: schemaFor("f", ""), Callable: &fakeCallable{sig: Signature{Name: "f"}},
		RequestOptions: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)}
	got, _, err := literal.ValidateArguments(argsOf(t, `{"n":"7"}`))
	require.NoError(t, err, "a Tool literal compiles its request options on use")
	assert.Equal(t, json.Number("7"), got.Values["n"])

	literal.RequestOptions = json.RawMessage(`{"type":"nope"}`)
	_, _, err = literal.ValidateArguments(argsOf(t, `{"n":1}`))
	assert.ErrorIs(t, err, ErrInvalidSchema)

	typed := mustTool(t, &fakeCallable{sig: Signature{Name: "f"}}, &ToolOptions{Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)})
	typed.RequestOptions = json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`)
	_, _, err = typed.ValidateArguments(argsOf(t, `{"n":1}`))
	assert.ErrorIs(t, err, ErrInvalidArguments, "reassigned request options are used, not the stale compiled ones")
}

func TestToolFromDict(t *testing.T) {
	tool, err := ToolFromDict(json.RawMessage(`{"id":"x"}`))
	assert.Nil(t, tool)
	assert.ErrorIs(t, err, ErrNotRestorable)
	assert.Contains(t, err.Error(), "`Tool.from_dict` is not supported.")
}

func TestJSONHelpers(t *testing.T) {
	_, err := renameFunction(json.RawMessage(`{"function":[]}`), "x")
	assert.Error(t, err)

	assert.True(t, schemaNotGiven(nil))
	assert.True(t, schemaNotGiven(json.RawMessage(" null ")))
	assert.True(t, schemaNotGiven(json.RawMessage("{ }")))
	assert.False(t, schemaNotGiven(json.RawMessage(`{"type":"object"}`)))
	assert.False(t, schemaNotGiven(json.RawMessage(`[]`)))
	for _, s := range []string{"{}", " {\n\t} ", "{", "}", "{}}", "{ ", "{x}", `{"a":1}`, "[]", "{}{}", " { } x"} {
		ms, ok := jsontext.Split([]byte(s))
		assert.Equal(t, ok && len(ms) == 0, schemaNotGiven(json.RawMessage(s)), "%q: an object without members, as Split finds it", s)
	}

	cl := cloneArguments(&Arguments{Values: map[string]any{"b": 1, "a": 2}})
	assert.Equal(t, []string{"a", "b"}, cl.Keys, "arguments without keys get sorted keys")
}
