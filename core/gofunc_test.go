package core

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// argsOf builds Arguments from JSON text, keeping key order.
func argsOf(t *testing.T, s string) *Arguments {
	t.Helper()
	a, err := DecodeArguments("test", []byte(s))
	require.NoError(t, err, "DecodeArguments(%s)", s)
	return a
}

func TestFuncRefuses(t *testing.T) {
	tests := []struct {
		name  string
		fname string
		fn    any
		names []string
	}{
		{"empty name", "", func() {}, nil},
		{"nil fn", "f", nil, nil},
		{"not a func", "f", 42, nil},
		{"typed nil func", "f", (func())(nil), nil},
		{"too few names", "f", func(a, b int) {}, []string{"a"}},
		{"too many names", "f", func(a int) {}, []string{"a", "b"}},
		{"names for ctx", "f", func(ctx context.Context) {}, []string{"ctx"}},
		{"empty param name", "f", func(a int) {}, []string{""}},
		{"repeated name", "f", func(a, b int) {}, []string{"a", "a"}},
		{"chan param", "f", func(c chan int) {}, []string{"c"}},
		{"func param", "f", func(c func()) {}, []string{"c"}},
		{"complex param", "f", func(c complex128) {}, []string{"c"}},
		{"context not first", "f", func(a int, ctx context.Context) {}, []string{"a", "ctx"}},
		{"second result not error", "f", func() (int, int) { return 0, 0 }, nil},
		{"three results", "f", func() (int, int, error) { return 0, 0, nil }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Func(tc.fname, tc.fn, tc.names...)
			require.Error(t, err)
			assert.Nil(t, c)
			assert.ErrorIs(t, err, ErrInvalidTool, "got %v, want invalid-tool", err)
		})
	}
}

func TestFuncSignatureTypes(t *testing.T) {
	type point struct{ X, Y int }
	fn := func(ctx context.Context, s string, i int, u uint8, f float32, b bool, l []int, arr [2]string,
		bs []byte, m map[string]int, st point, p *int, a any, rest ...float64) {
	}
	c, err := Func("kinds", fn, "s", "i", "u", "f", "b", "l", "arr", "bs", "m", "st", "p", "a", "rest")
	require.NoError(t, err)
	sig, err := c.Signature()
	require.NoError(t, err)
	assert.Equal(t, "kinds", sig.Name)
	assert.Empty(t, sig.Doc)
	want := []Param{
		{Name: "s", Type: "str"}, {Name: "i", Type: "int"}, {Name: "u", Type: "int"},
		{Name: "f", Type: "float"}, {Name: "b", Type: "bool"}, {Name: "l", Type: "list"},
		{Name: "arr", Type: "list"}, {Name: "bs", Type: "str"}, {Name: "m", Type: "dict"},
		{Name: "st", Type: "dict"}, {Name: "p", Type: "int"}, {Name: "a", Type: ""},
		{Name: "rest", Kind: ParamRest, Type: "float"},
	}
	assert.Equal(t, want, sig.Params, "got %+v, want %+v", sig.Params, want)
}

func TestFuncCall(t *testing.T) {
	type point struct {
		X int `json:"x"`
		Y int `json:"y"`
	}
	boom := errors.New("boom")
	tests := []struct {
		name     string
		fn       any
		names    []string
		args     string
		want     any
		wantErr  error // checked with errors.Is
		wantCode Code
	}{
		{"ints", func(a, b int) int { return a + b }, []string{"a", "b"}, `{"a":1,"b":2}`, 3, nil, ""},
		{"by name not order", func(a, b string) string { return a + b }, []string{"a", "b"}, `{"b":"B","a":"A"}`, "AB", nil, ""},
		{"float from int", func(x float64) float64 { return x * 2 }, []string{"x"}, `{"x":2}`, 4.0, nil, ""},
		{"big int exact", func(x int64) int64 { return x }, []string{"x"}, `{"x":9007199254740993}`, int64(9007199254740993), nil, ""},
		{"any keeps json.Number", func(x any) any { return x }, []string{"x"}, `{"x":12345678901234567890}`, json.Number("12345678901234567890"), nil, ""},
		{"struct from object", func(p point) int { return p.X + p.Y }, []string{"p"}, `{"p":{"x":2,"y":3}}`, 5, nil, ""},
		{"slice of ints", func(xs []int) int { return len(xs) }, []string{"xs"}, `{"xs":[1,2,3]}`, 3, nil, ""},
		{"map", func(m map[string]any) int { return len(m) }, []string{"m"}, `{"m":{"a":1}}`, 1, nil, ""},
		{"pointer null", func(p *int) bool { return p == nil }, []string{"p"}, `{"p":null}`, true, nil, ""},
		{"pointer value", func(p *int) int { return *p }, []string{"p"}, `{"p":7}`, 7, nil, ""},
		{"variadic spread", func(rest ...int) int { return len(rest) }, []string{"rest"}, `{"rest":[1,2,3]}`, 3, nil, ""},
		{"variadic missing", func(a int, rest ...int) int { return a + len(rest) }, []string{"a", "rest"}, `{"a":1}`, 1, nil, ""},
		{"no results", func(a int) {}, []string{"a"}, `{"a":1}`, nil, nil, ""},
		{"error only nil", func() error { return nil }, nil, `{}`, nil, nil, ""},
		{"error only", func() error { return boom }, nil, `{}`, nil, boom, ""},
		{"value and error", func() (int, error) { return 0, boom }, nil, `{}`, nil, boom, ""},
		{"value and nil error", func() (string, error) { return "ok", nil }, nil, `{}`, "ok", nil, ""},
		{"unexpected key", func(a int) int { return a }, []string{"a"}, `{"a":1,"c":2}`, nil, nil, CodeInvalidArguments},
		{"missing key", func(a, b int) int { return a }, []string{"a", "b"}, `{"a":1}`, nil, nil, CodeInvalidArguments},
		{"string for int", func(a int) int { return a }, []string{"a"}, `{"a":"5"}`, nil, nil, CodeInvalidArguments},
		{"float for int", func(a int) int { return a }, []string{"a"}, `{"a":5.5}`, nil, nil, CodeInvalidArguments},
		{"null for int", func(a int) int { return a }, []string{"a"}, `{"a":null}`, nil, nil, CodeInvalidArguments},
		{"struct field wrong", func(p point) int { return p.X }, []string{"p"}, `{"p":{"x":"no"}}`, nil, nil, CodeInvalidArguments},
		{"variadic not array", func(rest ...int) int { return 0 }, []string{"rest"}, `{"rest":1}`, nil, nil, CodeInvalidArguments},
		{"variadic item wrong", func(rest ...int) int { return 0 }, []string{"rest"}, `{"rest":["x"]}`, nil, nil, CodeInvalidArguments},
		{"panic", func() int { panic("oops") }, nil, `{}`, nil, nil, CodeInternal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Func("f", tc.fn, tc.names...)
			require.NoError(t, err)
			got, err := c.Call(context.Background(), argsOf(t, tc.args))
			switch {
			case tc.wantErr != nil:
				assert.ErrorIs(t, err, tc.wantErr, "got %v, want %v", err, tc.wantErr)
			case tc.wantCode != "":
				var e *Error
				require.ErrorAs(t, err, &e, "got %v, want code %s", err, tc.wantCode)
				assert.Equal(t, tc.wantCode, e.Code, "got %s, want %s (%s)", e.Code, tc.wantCode, e.Message)
				assert.Equal(t, "f", e.Tool)
			default:
				require.NoError(t, err)
				assert.Equal(t, tc.want, got, "got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestFuncCallMessages(t *testing.T) {
	c, err := Func("add", func(a, b int) int { return a + b }, "a", "b")
	require.NoError(t, err)
	_, err = c.Call(context.Background(), argsOf(t, `{"a":1,"b":2,"c":3}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "add() got an unexpected keyword argument 'c'")
	_, err = c.Call(context.Background(), argsOf(t, `{"a":1}`))
	assert.Contains(t, err.Error(), "add() missing required argument: 'b'")
}

func TestFuncContext(t *testing.T) {
	type key struct{}
	c, err := Func("ctx", func(ctx context.Context, a int) (any, error) { return ctx.Value(key{}), nil }, "a")
	require.NoError(t, err)
	sig, err := c.Signature()
	require.NoError(t, err)
	require.Len(t, sig.Params, 1, "the context parameter is not a tool parameter")
	ctx := context.WithValue(context.Background(), key{}, "here")
	got, err := c.Call(ctx, argsOf(t, `{"a":1}`))
	require.NoError(t, err)
	assert.Equal(t, "here", got)
	//lint:ignore SA1012 a nil context must not crash the call: that is what this tests
	got, err = c.Call(nil, argsOf(t, `{"a":1}`))
	require.NoError(t, err)
	assert.Nil(t, got)
}

func TestFuncNilArguments(t *testing.T) {
	c, err := Func("none", func() string { return "ok" })
	require.NoError(t, err)
	got, err := c.Call(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", got)
}

func TestFuncPanicIsInternal(t *testing.T) {
	c, err := Func("bad", func(a int) int { panic(errors.New("kaput")) }, "a")
	require.NoError(t, err)
	_, err = c.Call(context.Background(), argsOf(t, `{"a":1}`))
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, CodeInternal, e.Code)
	assert.Contains(t, e.Message, "kaput")
	var pe *panicError
	require.ErrorAs(t, err, &pe, "the cause keeps the panic")
	assert.Contains(t, pe.Error(), "kaput")
}

func TestHandlerFunc(t *testing.T) {
	h := HandlerFunc("echo", func(ctx context.Context, args *Arguments) (any, error) {
		return args.Keys, nil
	})
	sig, err := h.Signature()
	require.NoError(t, err)
	assert.Equal(t, Signature{Name: "echo", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}, sig)
	got, err := h.Call(context.Background(), argsOf(t, `{"b":1,"a":2}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a"}, got)

	got, err = h.Call(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, got, "nil arguments reach the handler as an empty object")

	p := HandlerFunc("p", func(ctx context.Context, args *Arguments) (any, error) { panic("no") })
	_, err = p.Call(context.Background(), nil)
	assert.ErrorIs(t, err, ErrInternal)

	n := HandlerFunc("n", nil)
	_, err = n.Signature()
	assert.ErrorIs(t, err, ErrInvalidTool)
	_, err = n.Call(context.Background(), nil)
	assert.ErrorIs(t, err, ErrInvalidTool)
	_, err = NewTool(n, nil)
	assert.ErrorIs(t, err, ErrInvalidTool, "a nil handler cannot make a tool")
}

func TestDecodedJSONType(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"}, {true, "boolean"}, {"s", "string"}, {json.Number("1"), "integer"},
		{json.Number("1.5"), "number"}, {json.Number("1e3"), "number"}, {1.5, "number"},
		{3, "integer"}, {[]any{}, "array"}, {map[string]any{}, "object"}, {struct{}{}, "struct {}"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, decodedJSONType(tc.v))
		})
	}
}

func TestFuncStructFieldsMatchExactly(t *testing.T) {
	type point struct {
		Kind string `json:"kind"`
		X    int    `json:"x"`
	}
	var got point
	f, err := Func("place", func(p point) string { got = p; return p.Kind }, "p")
	require.NoError(t, err)
	out, err := f.Call(context.Background(), argsOf(t, `{"p":{"kind":"safe","x":1}}`))
	require.NoError(t, err)
	assert.Equal(t, "safe", out)
	_, err = f.Call(context.Background(), argsOf(t, "{\"p\":{\"kind\":\"safe\",\"\u212aind\":\"evil\"}}"))
	require.Error(t, err, "a key that names a field only by case (the Kelvin sign folds to k) is refused")
	assert.ErrorIs(t, err, ErrInvalidArguments)
	assert.Equal(t, "safe", got.Kind, "the call did not run with the other key")
	_, err = f.Call(context.Background(), argsOf(t, `{"p":{"KIND":"evil"}}`))
	assert.ErrorIs(t, err, ErrInvalidArguments)
	_, err = f.Call(context.Background(), argsOf(t, `{"p":{"kind":"ok","extra":1}}`))
	assert.NoError(t, err, "a key that matches no field is ignored, as encoding/json does")
}
