package core

import (
	"regexp"
	"testing"
)

// TestNewUUID4 holds the record IDs to the version-4 UUID spelling LionAGI
// stamps, and to being different each time.
func TestNewUUID4(t *testing.T) {
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := newUUID4()
		if !v4.MatchString(id) {
			t.Fatalf("got %q, want a version-4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("got %q twice", id)
		}
		seen[id] = true
	}
}
