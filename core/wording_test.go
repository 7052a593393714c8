package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// Messages name a provider as people write it and count in the singular for one.
func TestWordingProviderAndSingular(t *testing.T) {
	_, err := ParseToolCalls([]byte(`{"id": "call_1", "type": "function", "function": {"arguments": "{}"}}`))
	require.Error(t, err)
	require.Contains(t, err.Error(), "an OpenAI Chat tool call")
	require.NotContains(t, err.Error(), "a openai-chat")

	for _, tc := range []struct {
		name, unit, want string
		n                json.Number
	}{
		{"one character", " characters", " of at least 1 character", "1"},
		{"two characters", " characters", " of at least 2 characters", "2"},
		{"one item", " items", " of at least 1 item", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := boundsPhrase(map[string]any{"minLength": tc.n, "minItems": tc.n}, [][2]string{{map[string]string{" characters": "minLength", " items": "minItems"}[tc.unit], "of at least"}}, tc.unit)
			require.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
}
