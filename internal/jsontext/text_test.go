package jsontext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKinds(t *testing.T) {
	for raw, want := range map[string]string{
		`{}`: Object, ` [1]`: Array, `"x"`: String, `true`: Boolean, `false`: Boolean,
		`null`: Null, `-1`: Number, `2.5`: Number, ``: Nothing, "\n\t": Nothing,
	} {
		assert.Equal(t, want, Kind([]byte(raw)), "Kind(%q)", raw)
	}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, Null}, {true, Boolean}, {"s", String}, {1.5, Number}, {7, Number}, {[]any{}, Array},
		{map[string]any{}, Object}, {struct{}{}, "struct {}"},
	} {
		assert.Equal(t, tc.want, KindOf(tc.v), "KindOf(%#v)", tc.v)
	}
	for kind, want := range map[string]string{
		Object: "an object", Array: "an array", String: "a string", Boolean: "a boolean",
		Number: "a number", Null: "null", Nothing: "nothing",
	} {
		assert.Equal(t, want, Described(kind))
	}
}

func TestAppendString(t *testing.T) {
	for s, want := range map[string]string{
		"plain": `"plain"`, "a<b&c>": `"a<b&c>"`, "q\"\\": `"q\"\\"`, "\n": `"\n"`, "é": `"é"`, "\xff": `"\ufffd"`,
	} {
		assert.Equal(t, want, string(AppendString([]byte("x"), s))[1:], "AppendString(%q)", s)
	}
	b, err := Marshal(map[string]any{"k": "<>"})
	assert.NoError(t, err)
	assert.Equal(t, `{"k":"<>"}`, string(b))
	_, err = Marshal(func() {})
	assert.Error(t, err)
}

func TestPointers(t *testing.T) {
	p := Join("", "a/b", "c~d", "0")
	assert.Equal(t, "/a~1b/c~0d/0", p)
	assert.Equal(t, []string{"a/b", "c~d", "0"}, Tokens(p))
	assert.Nil(t, Tokens(""))
	doc := map[string]any{"a/b": map[string]any{"c~d": []any{"x", "y"}}}
	assert.Equal(t, "x", At(doc, p))
	assert.Nil(t, At(doc, "/a~1b/c~0d/2"))
	assert.Nil(t, At(doc, "/a~1b/c~0d/01"), "no leading zeros")
	assert.Nil(t, At(doc, "/nope/x"))
	assert.Equal(t, doc, At(doc, ""))
	for _, tc := range []struct {
		a, b string
		less bool
	}{
		{"/a/2", "/a/10", true}, {"/a/10", "/a/2", false}, {"/a", "/a/0", true}, {"/b", "/a/0", false}, {"", "/a", true},
	} {
		assert.Equal(t, tc.less, Less(tc.a, tc.b), "Less(%q, %q)", tc.a, tc.b)
	}
	assert.Equal(t, "the root", Display(""))
	assert.Equal(t, "/x", Display("/x"))
	n, ok := Index("123")
	assert.True(t, ok)
	assert.Equal(t, 123, n)
	for _, bad := range []string{"", "-1", "1a", "0123", "1234567890"} {
		_, ok := Index(bad)
		assert.False(t, ok, "Index(%q)", bad)
	}
}
