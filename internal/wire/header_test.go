package wire

import (
	"context"
	"io"
	"net/http"
	"testing"
)

// The header keys canonicalize as net/http's do.
func TestCanonicalHeaderKeyMatchesNetHTTP(t *testing.T) {
	for _, k := range []string{
		"", "a", "content-type", "Content-Type", "CONTENT-TYPE", "mcp-session-id", "Mcp-Protocol-Version",
		"last-event-id", "x--y", "-x", "x-", "a b", "ü-x", "x_y", "1-a", "WWW-authenticate", "js.fetch:mode",
	} {
		if got, want := CanonicalHeaderKey(k), http.CanonicalHeaderKey(k); got != want {
			t.Errorf("CanonicalHeaderKey(%q) = %q, net/http says %q", k, got, want)
		}
	}
}

func TestHeaderMethods(t *testing.T) {
	h := Header{}
	h.Set("content-type", "a")
	h.Add("Content-type", "b")
	if got := h.Values("CONTENT-TYPE"); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("Values = %q", got)
	}
	if h.Get("Content-Type") != "a" || h.Get("missing") != "" {
		t.Fatalf("Get")
	}
	c := h.Clone()
	c.Set("Content-Type", "c")
	c.Add("X", "1")
	if h.Get("Content-Type") != "a" || h.Get("X") != "" {
		t.Fatalf("Clone shares with the original: %v", h)
	}
	h.Del("content-type")
	if len(h) != 0 {
		t.Fatalf("Del left %v", h)
	}
	if Header(nil).Clone() != nil {
		t.Fatalf("Clone of nil")
	}
}

func TestRequest(t *testing.T) {
	var none context.Context // nil: its refusal is the test
	if _, err := NewRequest(none, MethodGet, "http://x/", nil); err == nil {
		t.Fatal("nil context accepted")
	}
	if _, err := NewRequest(context.Background(), "", "http://x/", nil); err == nil {
		t.Fatal("empty method accepted")
	}
	if _, err := NewRequest(context.Background(), MethodGet, "http://x/%zz", nil); err == nil {
		t.Fatal("bad URL accepted")
	}
	type key struct{}
	r, err := NewRequest(context.Background(), MethodPost, "http://x/mcp", []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	r2 := r.WithContext(context.WithValue(context.Background(), key{}, 1))
	if r2.Context().Value(key{}) != 1 || r.Context().Value(key{}) != nil || r2.URL != r.URL {
		t.Fatal("WithContext")
	}
	if (&Request{}).Context() == nil {
		t.Fatal("zero Request has no context")
	}
	if n, err := NoBody.Read(make([]byte, 1)); n != 0 || err != io.EOF || NoBody.Close() != nil {
		t.Fatal("NoBody")
	}
}
