package provider

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// A bound of one reads in the singular in the description a strict export writes.
func TestDescribeKeywordSingular(t *testing.T) {
	for _, tc := range []struct{ keyword, n, want string }{
		{"minLength", "1", "At least 1 character."},
		{"minLength", "2", "At least 2 characters."},
		{"maxItems", "1", "At most 1 item."},
		{"minProperties", "1", "At least 1 property."},
	} {
		t.Run(tc.keyword+tc.n, func(t *testing.T) {
			got := describeKeyword(tc.keyword, json.Number(tc.n))
			require.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
}
