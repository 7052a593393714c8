package mcp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// singleTextCases are content lists: the ones one text item makes, and
// ones that look like it but are not.
var singleTextCases = []string{
	`[{"type":"text","text":"Echo: m1"}]`,
	` [ {"text":"a\"b\\c\u00e9\ud83d\ude00","type":"text"} ] `,
	`[{"type":"te\u0078t","text":"escaped type"}]`,
	`[{"type":"text","text":"first","text":"last wins"}]`,
	`[{"type":"text","text":"x","annotations":{"audience":["user"]},"_meta":{"k":1}}]`,
	`[{"type":"text","text":"\ud800 lone surrogate"}]`,
	`[{"type":"text"}]`,
	`[{"type":"text","text":12345678901234567890}]`,
	`[{"type":"text","text":null}]`,
	`[{"type":"image","data":"AA==","mimeType":"image/png"}]`,
	`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`,
	`[]`,
	`["text"]`,
	`[{"type":["text"],"text":"x"}]`,
}

// TestSingleTextMatchesTheDecodedUnwrap: what the fast path reads from the
// bytes is what decoding the content list and unwrapping it gives, and it
// declines every other shape.
func TestSingleTextMatchesTheDecodedUnwrap(t *testing.T) {
	for _, c := range singleTextCases {
		checkSingleText(t, c)
	}
}

func checkSingleText(t *testing.T, c string) {
	t.Helper()
	if !json.Valid([]byte(c)) {
		return
	}
	var content []any
	if decodeNumbers(json.RawMessage(c), &content) != nil {
		_, ok := singleText(json.RawMessage(c))
		require.False(t, ok, "%s: not a list, but the fast path read it", c)
		return
	}
	want := unwrapContent(content)
	got, ok := singleText(json.RawMessage(c))
	if !ok {
		if s, isText := want.(string); isText && len(content) == 1 {
			item := content[0].(map[string]any)
			_, has := item["text"]
			require.False(t, has, "%s: declined a single text item %q", c, s)
		}
		return
	}
	require.Equal(t, want, got, "%s", c)
}

// FuzzSingleText holds the fast path to the decoded unwrap on any input.
func FuzzSingleText(f *testing.F) {
	for _, c := range singleTextCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, c string) {
		checkSingleText(t, c)
	})
}

// TestReadResultSingleText: a one-text-item result reads as its text in
// LionAGI mode, and as the whole result in full mode; an error result is
// still a tool-error.
func TestReadResultSingleText(t *testing.T) {
	cfg := &ServerConfig{Name: "s"}
	raw := json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}]}`)
	got, err := readResult(cfg, "t", "t", raw, ResultLionAGI, nil)
	require.NoError(t, err)
	require.Equal(t, "Echo: hi", got)
	full, err := readResult(cfg, "t", "t", raw, ResultFull, nil)
	require.NoError(t, err)
	require.Equal(t, json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}]}`), full)
	_, err = readResult(cfg, "t", "t", json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"bad"}]}`), ResultLionAGI, nil)
	require.ErrorContains(t, err, "bad")
}
