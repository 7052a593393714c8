//go:build !toolgate_remote_validator

package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A contains failure is one issue at the array, named for the keyword the
// schema wrote: the validator files a plain contains failure under
// minContains (in every draft) with each non-matching item as a cause, which
// read as type errors of items that need not match.
func TestContainsIssues(t *testing.T) {
	issue := func(schema, args string) Issue {
		t.Helper()
		cs, err := CompileSchema("t", json.RawMessage(schema))
		require.NoError(t, err)
		a, err := DecodeArguments("t", []byte(args))
		require.NoError(t, err)
		_, _, err = cs.Normalize("t", a, CoerceNone)
		e := AsError(err)
		require.NotNil(t, e, "%s refuses %s", schema, args)
		require.Len(t, e.Issues, 1, "%+v", e.Issues)
		return e.Issues[0]
	}
	draft7 := `{"$schema":"http://json-schema.org/draft-07/schema#","not":{"required":["z"]},"properties":{"a":{"contains":{"type":"string"}}}}`
	got := issue(draft7, `{"a":[1,2]}`)
	assert.Equal(t, "/a", got.Path)
	assert.Equal(t, "contains", got.Keyword, "draft-07 has no minContains")
	assert.Equal(t, `field /a: none of its 2 items matches the schema under "contains"; at least one must (field /a/0: expected string, but got number)`, got.Message)
	assert.Equal(t, Issue{Path: "/a", Keyword: "contains", Message: `field /a: is empty; at least one item must match the schema under "contains"`},
		issue(draft7, `{"a":[]}`))

	min2 := `{"not":{"required":["z"]},"properties":{"a":{"contains":{"type":"string"},"minContains":2,"maxContains":3}}}`
	assert.Equal(t, Issue{Path: "/a", Keyword: "minContains", Message: `field /a: 1 of its items match the schema under "contains"; at least 2 must (minContains)`},
		issue(min2, `{"a":["x",1]}`))
	assert.Equal(t, Issue{Path: "/a", Keyword: "maxContains", Message: `field /a: 4 of its items match the schema under "contains"; at most 3 may (maxContains)`},
		issue(min2, `{"a":["w","x","y","z"]}`))
}
