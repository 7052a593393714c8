package sha256

import (
	stdsha256 "crypto/sha256"
	"strings"
	"testing"
)

// TestSum256 compares the digest with crypto/sha256 on every length across
// the padding's block boundaries and on multi-block inputs.
func TestSum256(t *testing.T) {
	for n := 0; n < 300; n++ {
		data := []byte(strings.Repeat("mcp__srv__tool-ü", 20)[:n])
		if got, want := Sum256(data), stdsha256.Sum256(data); got != want {
			t.Fatalf("length %d: got %x, want %x", n, got, want)
		}
	}
}

// FuzzSum256 holds the digest to crypto/sha256 on any input.
func FuzzSum256(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Sum256(data), stdsha256.Sum256(data); got != want {
			t.Fatalf("got %x, want %x", got, want)
		}
	})
}
