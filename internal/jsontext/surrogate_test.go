package jsontext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLoneSurrogate(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{`{"a":"plain"}`, -1},
		{`{"a":"\ud83d\ude00 pair"}`, -1},
		{`{"a":"\uD83D\uDE00"}`, -1},
		{`{"a":"\\ud800 is text, not an escape"}`, -1},
		{`{"a":"\n\u00e9"}`, -1},
		{`{"a":"x\ud800"}`, 7},
		{`{"a":"\ud800x"}`, 6},
		{`{"a":"\ude00"}`, 6},
		{`{"a":"\ud800\ud800"}`, 6},
		{`{"a":"\\\ud800"}`, 8},
		{`"\ud83d\ude00\udbff"`, 13},
	} {
		assert.Equal(t, tc.want, LoneSurrogate([]byte(tc.text)), tc.text)
	}
}

func TestStringAt(t *testing.T) {
	text := []byte(`{"a":[1,{"b~/":"é😀\ud800"}],"k\udc00":2}`)
	off := LoneSurrogate(text)
	ptr, key, index, ok := StringAt(text, off)
	assert.True(t, ok)
	assert.Equal(t, "/a/1/b~0~1", ptr)
	assert.False(t, key)
	assert.Equal(t, 3, index, "é is one UTF-16 unit, 😀 two")

	keyOff := LoneSurrogate(text[off+6:]) + off + 6
	ptr, key, index, ok = StringAt(text, keyOff)
	assert.True(t, ok)
	assert.Equal(t, "", ptr)
	assert.True(t, key)
	assert.Equal(t, 1, index)

	_, _, _, ok = StringAt(text, 1)
	assert.False(t, ok, "the quote of a key is not inside it")
}
