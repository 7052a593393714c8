package core

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// recordCase is one case of tests/fixtures/records/function_calling.json
// (see its "about"), which the JS tests replay too.
type recordCase struct {
	Name string `json:"name"`
	Tool struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
		TimeoutMs  float64         `json:"timeoutMs"`
	} `json:"tool"`
	Handler struct {
		Returns             json.RawMessage `json:"returns"`
		ThrowsToolgateError *Error          `json:"throwsToolgateError"`
		ThrowsError         *struct {
			Name    string `json:"name"`
			Message string `json:"message"`
		} `json:"throwsError"`
		ThrowsValue json.RawMessage `json:"throwsValue"`
		Hangs       bool            `json:"hangs"`
	} `json:"handler"`
	Request  json.RawMessage `json:"request"`
	Metadata map[string]any  `json:"metadata"`
	Invoke   bool            `json:"invoke"`
	Want     json.RawMessage `json:"want"`
}

// recordHandler is the Go handler a case describes. A returned value is
// its JSON bytes (json.RawMessage), so its key order is the fixture's, as a
// JS handler's object keeps its own; a hanging handler returns only after
// the test.
func recordHandler(t *testing.T, tc recordCase) Handler {
	h := tc.Handler
	switch {
	case h.ThrowsToolgateError != nil:
		return func(context.Context, *Arguments) (any, error) { return nil, h.ThrowsToolgateError }
	case h.ThrowsError != nil:
		return func(context.Context, *Arguments) (any, error) {
			return nil, namedErr{name: h.ThrowsError.Name, message: h.ThrowsError.Message}
		}
	case h.ThrowsValue != nil:
		var s string
		require.NoError(t, json.Unmarshal(h.ThrowsValue, &s), "got thrown value %s, want a string (the only kind the Go replay builds)", h.ThrowsValue)
		return func(context.Context, *Arguments) (any, error) { return nil, namedErr{name: "string", message: s} }
	case h.Hangs:
		release := make(chan struct{})
		t.Cleanup(func() { close(release) })
		return func(context.Context, *Arguments) (any, error) {
			<-release
			return nil, nil
		}
	case h.Returns != nil:
		return func(context.Context, *Arguments) (any, error) { return h.Returns, nil }
	}
	t.Fatalf("case %q: got handler %+v, want returns, throws… or hangs", tc.Name, h)
	return nil
}

// uuid4 is a version-4 UUID in lower-case text.
var uuid4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// recordPlaceholders check the values a fixture record writes as
// placeholders, because they vary per run.
var recordPlaceholders = map[string]func(raw json.RawMessage) bool{
	"<uuid>": func(raw json.RawMessage) bool {
		var s string
		return json.Unmarshal(raw, &s) == nil && uuid4.MatchString(s)
	},
	"<seconds>": func(raw json.RawMessage) bool {
		var f float64
		return jsontext.Kind(raw) == "number" && json.Unmarshal(raw, &f) == nil && f > 0
	},
}

// withPlaceholders returns the object got with the value of every member
// that want writes as a placeholder (at any depth of objects) checked by its
// shape and replaced by that placeholder; every other byte stays as got has
// it.
func withPlaceholders(t *testing.T, want, got json.RawMessage, path string) json.RawMessage {
	t.Helper()
	wantMembers, ok := jsontext.Split(want)
	if !ok {
		return got
	}
	for _, m := range wantMembers {
		gotValue, ok := jsontext.Lookup(got, m.Key)
		if !ok {
			continue // the text comparison reports the missing key
		}
		var placeholder string
		if json.Unmarshal(m.Value, &placeholder) == nil {
			check, isPlaceholder := recordPlaceholders[placeholder]
			if !isPlaceholder {
				continue
			}
			assert.True(t, check(gotValue), "%s/%s: got %s, want %s", path, m.Key, gotValue, placeholder)
			gotValue = m.Value
		} else {
			gotValue = withPlaceholders(t, m.Value, gotValue, path+"/"+m.Key)
		}
		got, ok = jsontext.Replace(got, m.Key, gotValue)
		require.True(t, ok, "%s: got %s, want an object", path, got)
	}
	return got
}

func TestFunctionCallingRecordFixture(t *testing.T) {
	var fx struct {
		Cases []recordCase `json:"cases"`
	}
	fixture.Load(t, "records", "function_calling.json", &fx)
	require.NotEmpty(t, fx.Cases)
	for _, tc := range fx.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			tool := mustTool(t, HandlerFunc(tc.Tool.Name, recordHandler(t, tc)), &ToolOptions{
				Parameters: tc.Tool.Parameters,
				Timeout:    time.Duration(tc.Tool.TimeoutMs * float64(time.Millisecond)),
			})
			m := NewManager(nil)
			require.NoError(t, m.Register(tool, false))
			req, err := ParseRequest(tc.Request)
			require.NoError(t, err)
			var fc *FunctionCalling
			if tc.Invoke {
				fc, err = m.Invoke(context.Background(), req)
			} else {
				fc, err = m.Match(req)
			}
			require.NoError(t, err, "got %v, want the request to match", err)
			if tc.Metadata != nil {
				fc.Metadata = tc.Metadata
			}
			rec, err := fc.ToDict("")
			require.NoError(t, err)
			var want bytes.Buffer
			require.NoError(t, json.Compact(&want, tc.Want))
			got := withPlaceholders(t, want.Bytes(), rec, "")
			assert.Equal(t, want.String(), string(got), "got %s, want %s", got, want.String())
		})
	}
}
