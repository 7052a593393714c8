package core

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStrictCheck(t *testing.T) {
	tests := []struct {
		name     string
		args     string
		required []string
		want     []pk
	}{
		{"equal sets pass", `{"a":1,"b":2}`, []string{"b", "a"}, nil},
		{"both empty pass", `{}`, []string{}, nil},
		{"missing key", `{"a":1}`, []string{"a", "b"}, []pk{{"/b", "required"}}},
		{"unexpected key", `{"a":1,"x":2}`, []string{"a"}, []pk{{"/x", "strict"}}},
		{"both, missing first", `{"x":1,"y":2}`, []string{"a"}, []pk{{"/a", "required"}, {"/x", "strict"}, {"/y", "strict"}}},
		{"case matters", `{"PATH":1}`, []string{"path"}, []pk{{"/path", "required"}, {"/PATH", "strict"}}},
		{"repeated required names count once", `{}`, []string{"a", "a"}, []pk{{"/a", "required"}}},
		{"escaped names", `{"a/b":1}`, []string{"c~d"}, []pk{{"/c~0d", "required"}, {"/a~1b", "strict"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := checkStrict("t", mustDecode(t, tc.args), tc.required)
			if tc.want == nil {
				assert.NoError(t, err)
				return
			}
			var e *Error
			require.True(t, errors.As(err, &e), "got %v, want *Error", err)
			assert.Equal(t, CodeInvalidArguments, e.Code)
			assert.Equal(t, "t", e.Tool)
			assert.True(t, strings.HasPrefix(e.Message, "arguments must match the function schema: "), "got %q, want LionAGI's message", e.Message)
			assert.Equal(t, tc.want, issuePKs(e.Issues), "got %v, want %v", e.Issues, tc.want)
		})
	}
	t.Run("nil arguments", func(t *testing.T) {
		assert.ErrorIs(t, checkStrict("t", nil, nil), ErrInvalidRequest)
	})
}

func TestNonStrictCheck(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		minimum []string
		want    []pk
	}{
		{"superset passes", `{"a":1,"b":2,"extra":3}`, []string{"a"}, nil},
		{"empty minimum passes", `{}`, nil, nil},
		{"missing keys in order", `{"b":1}`, []string{"c", "b", "a"}, []pk{{"/c", "required"}, {"/a", "required"}}},
		{"case matters", `{"PATH":1}`, []string{"path"}, []pk{{"/path", "required"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := checkNonStrict("t", mustDecode(t, tc.args), tc.minimum)
			if tc.want == nil {
				assert.NoError(t, err)
				return
			}
			var e *Error
			require.True(t, errors.As(err, &e), "got %v, want *Error", err)
			assert.Equal(t, CodeInvalidArguments, e.Code)
			assert.Contains(t, e.Message, "arguments must match the function schema: ")
			assert.Contains(t, e.Message, `argument "`+tc.want[0].Path[1:]+`" is required but missing`)
			assert.Equal(t, tc.want, issuePKs(e.Issues), "got %v, want %v", e.Issues, tc.want)
		})
	}
	t.Run("nil arguments", func(t *testing.T) {
		assert.ErrorIs(t, checkNonStrict("t", nil, []string{"a"}), ErrInvalidRequest)
	})
}
