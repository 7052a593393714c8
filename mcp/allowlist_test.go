package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAllowEntryCanonical(t *testing.T) {
	tests := []struct {
		raw  string
		want string
	}{
		{"API.example.com", "api.example.com"},
		{"api.example.com:443", "api.example.com"},
		{"api.example.com:8443", "api.example.com:8443"},
		{"10.0.0.7:8443", "10.0.0.7:8443"},
		{"::1", "::1"},
		{"[::1]", "::1"},
		{"[::1]:443", "::1"},
		{"[0:0::1]:3000", "[::1]:3000"},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			e, err := parseAllowEntry(tc.raw)
			require.NoError(t, err)
			assert.Equal(t, tc.want, e.String(), "got %q, want %q", e.String(), tc.want)
		})
	}
}
