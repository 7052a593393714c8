package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nested returns n levels of nested arrays inside a top-level object, so the
// whole text nests depth n+1.
func nested(n int) []byte {
	return []byte(`{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
}

func TestDecodeArguments(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		keys   []string
		values map[string]any
	}{
		{"empty object", `{}`, []string{}, map[string]any{}},
		{"whitespace around", " \t\r\n{\"a\":1}\n ", []string{"a"}, map[string]any{"a": json.Number("1")}},
		{"key order kept", `{"z":1,"a":2,"m":3}`, []string{"z", "a", "m"},
			map[string]any{"z": json.Number("1"), "a": json.Number("2"), "m": json.Number("3")}},
		{"big integer exact", `{"n":9007199254740993}`, []string{"n"}, map[string]any{"n": json.Number("9007199254740993")}},
		{"number text kept", `{"n":1.50,"e":1E+2}`, []string{"n", "e"}, map[string]any{"n": json.Number("1.50"), "e": json.Number("1E+2")}},
		{"keys exact, no case folding", `{"path":"/safe","PATH":"/etc/passwd"}`, []string{"path", "PATH"},
			map[string]any{"path": "/safe", "PATH": "/etc/passwd"}},
		{"Kelvin sign is not k", `{"k":1,"\u212a":2}`, []string{"k", "\u212a"},
			map[string]any{"k": json.Number("1"), "\u212a": json.Number("2")}},
		{"escaped key unescaped", `{"a\"b":1,"\u0063":2}`, []string{`a"b`, "c"},
			map[string]any{`a"b`: json.Number("1"), "c": json.Number("2")}},
		{"nested values", `{"o":{"x":[1,"s",true,null]}}`, []string{"o"},
			map[string]any{"o": map[string]any{"x": []any{json.Number("1"), "s", true, nil}}}},
		{"nested duplicate keeps last", `{"o":{"x":1,"x":2}}`, []string{"o"},
			map[string]any{"o": map[string]any{"x": json.Number("2")}}},
		{"string values are not keys", `{"a":"b","c":"{\"d\":1}"}`, []string{"a", "c"},
			map[string]any{"a": "b", "c": `{"d":1}`}},
		{"proto keys are plain keys", `{"__proto__":{"isAdmin":true},"constructor":1}`, []string{"__proto__", "constructor"},
			map[string]any{"__proto__": map[string]any{"isAdmin": true}, "constructor": json.Number("1")}},
		{"escaped surrogate pair", `{"s":"\ud83d\ude00x"}`, []string{"s"}, map[string]any{"s": "😀x"}},
		{"depth 64 accepted", string(nested(63)), []string{"a"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := DecodeArguments("t", []byte(tc.in))
			require.NoError(t, err, "got error, want success for %s", tc.in)
			assert.Equal(t, tc.keys, a.Keys, "got keys %v, want %v", a.Keys, tc.keys)
			if tc.values != nil {
				assert.Equal(t, tc.values, a.Values, "got values %v, want %v", a.Values, tc.values)
			}
		})
	}
}

func TestDecodeArgumentsRefusals(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		code    Code
		keyword string // issue keyword for limit errors
		msg     string // part of the message
	}{
		{"empty input", []byte(``), CodeInvalidRequest, "", "got nothing"},
		{"only whitespace", []byte("  \n"), CodeInvalidRequest, "", "got nothing"},
		{"array", []byte(`[1,2]`), CodeInvalidRequest, "", "an array"},
		{"string", []byte(`"{}"`), CodeInvalidRequest, "", "a string"},
		{"null", []byte(`null`), CodeInvalidRequest, "", "null"},
		{"number", []byte(`12`), CodeInvalidRequest, "", "a number"},
		{"boolean", []byte(`true`), CodeInvalidRequest, "", "a boolean"},
		{"garbage", []byte(`hello`), CodeInvalidRequest, "", "starting with"},
		{"invalid JSON", []byte(`{"a":}`), CodeInvalidRequest, "", "not valid JSON"},
		{"unterminated object", []byte(`{"a":1`), CodeInvalidRequest, "", "not valid JSON"},
		{"unterminated string", []byte(`{"a":"x`), CodeInvalidRequest, "", "not valid JSON"},
		{"mismatched bracket", []byte(`{"a":1]`), CodeInvalidRequest, "", "not valid JSON"},
		{"trailing object", []byte(`{"a":1}{"b":2}`), CodeInvalidRequest, "", "trailing data"},
		{"trailing garbage", []byte(`{"a":1} x`), CodeInvalidRequest, "", "trailing data"},
		{"trailing brace", []byte(`{"a":1}}`), CodeInvalidRequest, "", "trailing data"},
		{"trailing NUL", []byte("{\"a\":1}\x00"), CodeInvalidRequest, "", "trailing data"},
		{"duplicate top-level key", []byte(`{"a":1,"b":2,"a":3}`), CodeInvalidRequest, "", `repeat the key "a"`},
		{"duplicate through escape", []byte(`{"a":1,"\u0061":2}`), CodeInvalidRequest, "", `repeat the key "a"`},
		{"invalid UTF-8", []byte("{\"a\":\"\xff\"}"), CodeInvalidRequest, "", "UTF-8"},
		{"invalid UTF-8 in key", []byte("{\"\xc3\":1}"), CodeInvalidRequest, "", "UTF-8"},
		{"depth 65 refused", nested(64), CodeInvalidArguments, "maxDepth", "deeper than 64"},
		{"depth 65 of objects refused", []byte(strings.Repeat(`{"a":`, 65) + `1` + strings.Repeat(`}`, 65)), CodeInvalidArguments, "maxDepth", "deeper than 64"},
		{"deep and unterminated refused for depth", []byte(strings.Repeat(`{"a":[`, 40)), CodeInvalidArguments, "maxDepth", "deeper than 64"},
		{"brackets inside strings do not count, the rest does", []byte(`{"s":"[[[[",` + `"a":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `}`), CodeInvalidArguments, "maxDepth", "deeper"},
		{"16 MiB + 1 refused", append(append([]byte(`{"a":"`), bytes.Repeat([]byte("x"), MaxArgumentBytes-7)...), '"', '}'), CodeInvalidArguments, "maxBytes", "more than the limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := DecodeArguments("mytool", tc.in)
			require.Error(t, err, "got %v, want an error", a)
			var e *Error
			require.True(t, errors.As(err, &e), "got %T, want *Error", err)
			assert.Equal(t, tc.code, e.Code, "got code %s, want %s (%v)", e.Code, tc.code, err)
			assert.Equal(t, "mytool", e.Tool, "got tool %q, want mytool", e.Tool)
			assert.Contains(t, e.Message, tc.msg, "got message %q, want it to contain %q", e.Message, tc.msg)
			if tc.keyword != "" {
				require.Len(t, e.Issues, 1, "got issues %v, want one", e.Issues)
				assert.Equal(t, tc.keyword, e.Issues[0].Keyword, "got keyword %q, want %q", e.Issues[0].Keyword, tc.keyword)
				assert.Equal(t, "", e.Issues[0].Path, "got path %q, want the root", e.Issues[0].Path)
			}
		})
	}
}

// An escaped lone surrogate would decode to U+FFFD and be judged as another
// string: it is refused with its pointer and its index in the string, as
// arguments, as a provider's text arguments and in a schema.
func TestLoneSurrogatesRefused(t *testing.T) {
	for _, tc := range []struct{ in, path, where string }{
		{`{"s":"ab\ud800"}`, "/s", "the string at /s holds a lone surrogate (\\ud800) at index 2"},
		{`{"o":{"list":["x","😀\udfff"]}}`, "/o/list/1", "the string at /o/list/1 holds a lone surrogate (\\udfff) at index 2"},
		{`{"k\udbff":1}`, "", "a key of the object at the top level holds a lone surrogate (\\udbff) at index 1"},
		{`{"s":"\ud800\ud800"}`, "/s", "(\\ud800) at index 0"},
	} {
		_, err := DecodeArguments("t", []byte(tc.in))
		e := AsError(err)
		require.NotNil(t, e, tc.in)
		assert.Equal(t, CodeInvalidArguments, e.Code, tc.in)
		assert.Contains(t, e.Message, tc.where)
		require.Len(t, e.Issues, 1)
		assert.Equal(t, Issue{Path: tc.path, Keyword: "loneSurrogate", Message: e.Message}, e.Issues[0])
	}

	_, err := ParseRequest([]byte(`{"type":"function","id":"c1","function":{"name":"t","arguments":"{\"s\":\"\ud800\"}"}}`))
	e := AsError(err)
	require.NotNil(t, e, "a provider's text arguments holding a lone surrogate")
	assert.Equal(t, CodeInvalidArguments, e.Code)
	assert.Equal(t, "loneSurrogate", e.Issues[0].Keyword)

	_, err = CompileSchema("t", json.RawMessage(`{"type":"object","properties":{"s":{"const":"\udc00"}}}`))
	e = AsError(err)
	require.NotNil(t, e, "a schema holding a lone surrogate")
	assert.Equal(t, CodeInvalidSchema, e.Code)
	assert.Equal(t, "/properties/s/const", e.Issues[0].Path)
	assert.Equal(t, "loneSurrogate", e.Issues[0].Keyword)
}

func TestDecodeArgumentsSizeBoundary(t *testing.T) {
	body := bytes.Repeat([]byte("x"), MaxArgumentBytes-8)
	in := append(append([]byte(`{"a":"`), body...), '"', '}')
	require.Len(t, in, MaxArgumentBytes, "got %d bytes, want exactly the limit", len(in))
	a, err := DecodeArguments("t", in)
	require.NoError(t, err, "got %v, want exactly MaxArgumentBytes accepted", err)
	assert.Len(t, a.Values["a"], MaxArgumentBytes-8, "got a shorter string, want it whole")
}

func TestDecodeArgumentsMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"top-level order kept, nested sorted", `{"z":{"b":1,"a":2},"a":[3,{"y":1,"x":2}]}`, `{"z":{"a":2,"b":1},"a":[3,{"x":2,"y":1}]}`},
		{"numbers never rounded", `{"big":9007199254740993,"neg":-18446744073709551617,"f":0.1000000000000000055511151231257827,"e":1e400}`,
			`{"big":9007199254740993,"neg":-18446744073709551617,"f":0.1000000000000000055511151231257827,"e":1e400}`},
		{"HTML not escaped", `{"h":"<a href='x'>&</a>"}`, `{"h":"<a href='x'>&</a>"}`},
		{"unicode kept", `{"k":"é\u212a😀"}`, "{\"k\":\"é\u212a😀\"}"},
		{"whitespace removed", "{ \"a\" : [ 1 , 2 ] }", `{"a":[1,2]}`},
		{"empty", `{}`, `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := DecodeArguments("t", []byte(tc.in))
			require.NoError(t, err)
			got, err := a.MarshalJSON()
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got), "got %s, want %s", got, tc.want)
			// json.Marshal compacts (and HTML-escapes) the same text.
			viaMarshal, err := json.Marshal(a)
			require.NoError(t, err)
			x, err := DecodeArguments("t", got)
			require.NoError(t, err)
			y, err := DecodeArguments("t", viaMarshal)
			require.NoError(t, err)
			assert.Equal(t, x, y, "got %s through json.Marshal, want the same value as %s", viaMarshal, got)
		})
	}
}

func TestDecodeArgumentsHelpers(t *testing.T) {
	t.Run("nil marshals as null", func(t *testing.T) {
		var a *Arguments
		got, err := a.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, "null", string(got), "got %s, want null", got)
		assert.Equal(t, 0, a.Len(), "got %d, want 0", a.Len())
		_, ok := a.Get("x")
		assert.False(t, ok, "got a value from nil arguments, want none")
	})
	t.Run("Set appends new keys and keeps old positions", func(t *testing.T) {
		a := NewArguments()
		a.Set("b", 1)
		a.Set("a", "x")
		a.Set("b", 2)
		assert.Equal(t, []string{"b", "a"}, a.Keys, "got %v, want [b a]", a.Keys)
		v, ok := a.Get("b")
		assert.True(t, ok)
		assert.Equal(t, 2, v, "got %v, want 2", v)
		assert.Equal(t, 2, a.Len(), "got %d, want 2", a.Len())
		got, err := json.Marshal(a)
		require.NoError(t, err)
		assert.Equal(t, `{"b":2,"a":"x"}`, string(got))
	})
	t.Run("Set on a zero value", func(t *testing.T) {
		var a Arguments
		a.Set("k", true)
		assert.Equal(t, []string{"k"}, a.Keys)
	})
	t.Run("inconsistent Keys and Values are reconciled", func(t *testing.T) {
		a := &Arguments{Keys: []string{"b", "missing", "b"}, Values: map[string]any{"b": 1, "z": 2, "a": 3}}
		got, err := json.Marshal(a)
		require.NoError(t, err)
		assert.Equal(t, `{"b":1,"a":3,"z":2}`, string(got), "got %s, want Keys order then the rest sorted", got)
		assert.Equal(t, 3, a.Len())
	})
	t.Run("long inconsistent Keys are reconciled", func(t *testing.T) {
		a := &Arguments{Values: map[string]any{}}
		for i := 0; i < 20; i++ {
			k := string(rune('a' + i))
			a.Keys = append(a.Keys, k)
			a.Values[k] = i
		}
		a.Keys[19] = "a" // "t" is left out, "a" repeats
		got, err := json.Marshal(a)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(got), `{"a":0,"b":1,`), "got %s, want Keys order", got)
		assert.True(t, strings.HasSuffix(string(got), `"s":18,"t":19}`), "got %s, want the missing key last", got)
		assert.Equal(t, 20, a.Len())
	})
	t.Run("a value that is not JSON is refused", func(t *testing.T) {
		a := &Arguments{Keys: []string{"c"}, Values: map[string]any{"c": make(chan int)}}
		_, err := json.Marshal(a)
		assert.Error(t, err, "got no error, want one for a channel")
	})
	t.Run("UnmarshalJSON decodes with the same rules", func(t *testing.T) {
		var a Arguments
		require.NoError(t, json.Unmarshal([]byte(`{"b":1,"a":2}`), &a))
		assert.Equal(t, []string{"b", "a"}, a.Keys)
		err := json.Unmarshal([]byte(`{"a":1,"a":2}`), &a)
		assert.ErrorIs(t, err, ErrInvalidRequest, "got %v, want invalid-request for a duplicate", err)
	})
	t.Run("many keys with a late duplicate", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("{")
		for i := 0; i < 40; i++ {
			b.WriteString(`"k` + strings.Repeat("x", i) + `":1,`)
		}
		b.WriteString(`"k":2}`)
		_, err := DecodeArguments("t", []byte(b.String()))
		assert.ErrorIs(t, err, ErrInvalidRequest, "got %v, want invalid-request", err)
	})
}

// FuzzDecodeArguments: never panics; success means one object within the
// caps, with no trailing data, that re-marshals and re-decodes to the same
// value; failure is invalid-request or invalid-arguments.
func FuzzDecodeArguments(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, `{"a":1,"a":2}`, `{"path":"/safe","PATH":"/etc/passwd"}`, `{"n":9007199254740993}`,
		`{"a":{"b":[1,2,{"c":null}]}}`, `{"a":1}{"b":2}`, `{"a":1} `, `[1]`, `"x"`, ``, `{"\u212a":1}`,
		`{"s":"\ud800"}`, `{"a":"\"}"}`, `{"a":[` + strings.Repeat("[", 70) + `}`, `{"e":1e400,"f":-0.0}`,
		`{"a":"<>&\u2028"}`,
	} {
		f.Add([]byte(s))
	}
	f.Add(nested(63))
	f.Add(nested(64))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := DecodeArguments("fuzz", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (e.Code != CodeInvalidRequest && e.Code != CodeInvalidArguments) {
				t.Fatalf("got %v, want invalid-request or invalid-arguments", err)
			}
			return
		}
		if len(data) > MaxArgumentBytes {
			t.Fatalf("accepted %d bytes, over the cap", len(data))
		}
		if d := maxDepthOf(a.Values); d > MaxArgumentDepth {
			t.Fatalf("accepted depth %d, over the cap", d)
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		var probe any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&probe) != nil || dec.Decode(&probe) == nil {
			t.Fatalf("accepted trailing data in %q", data)
		}
		if len(a.Keys) != len(a.Values) {
			t.Fatalf("got %d keys for %d values", len(a.Keys), len(a.Values))
		}
		out, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("re-marshal failed: %v", err)
		}
		b, err := DecodeArguments("fuzz", out)
		if err != nil {
			t.Fatalf("re-decode of %s failed: %v", out, err)
		}
		if !reflect.DeepEqual(a.Keys, b.Keys) || !reflect.DeepEqual(a.Values, b.Values) {
			t.Fatalf("round trip changed %q into %s", data, out)
		}
	})
}

// maxDepthOf is the nesting depth of objects and arrays in v.
func maxDepthOf(v any) int {
	var children []any
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			children = append(children, e)
		}
	case []any:
		children = x
	default:
		return 0
	}
	d := 1
	for _, e := range children {
		d = max(d, maxDepthOf(e)+1)
	}
	return d
}
