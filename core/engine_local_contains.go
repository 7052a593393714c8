//go:build !toolgate_remote_validator

package core

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// containsFailure reports whether e is the failure of "contains" (the
// validator files it under minContains, even for a draft without that
// keyword, with each item that did not match as a cause) or of maxContains.
func containsFailure(e *jsonschema.ValidationError) bool {
	last, endsOnName := lastKeyword(e.KeywordLocation)
	return !endsOnName && (last == "contains" || last == "minContains" || last == "maxContains")
}

// containsIssue words a contains failure from the schema and the array: how
// many items match the schema under "contains" and how many must (or may).
// A minContains failure of a schema whose minContains is 1, the default, is
// the failure of contains itself, and is named so: the validator names it
// minContains whatever the draft. It is false when the schema or the array
// cannot be found.
func containsIssue(leaf *jsonschema.ValidationError, at schemaAt, keyword, path string, instance any) (Issue, bool) {
	s := parentSchema(leaf, at, keyword)
	items, ok := instance.([]any)
	if s == nil || s.Contains == nil || !ok {
		return Issue{}, false
	}
	matched := 0
	for _, item := range items {
		if s.Contains.Validate(item) == nil {
			matched++
		}
	}
	field := describeField(path, "arguments")
	switch {
	case keyword == "maxContains":
		return Issue{Path: path, Keyword: keyword, Message: fmt.Sprintf(
			"%s: %d of its items match the schema under \"contains\"; at most %d may (maxContains)", field, matched, s.MaxContains)}, true
	case s.MinContains == 1 && len(items) == 0:
		return Issue{Path: path, Keyword: "contains", Message: field + `: is empty; at least one item must match the schema under "contains"`}, true
	case s.MinContains == 1:
		why := ""
		if len(leaf.Causes) > 0 {
			c := leaf.Causes[0]
			why = fmt.Sprintf(" (%s: %s)", describeField(cleanPointer(c.InstanceLocation), "arguments"), c.Message)
		}
		return Issue{Path: path, Keyword: "contains", Message: fmt.Sprintf(
			"%s: none of its %d items matches the schema under \"contains\"; at least one must%s", field, len(items), why)}, true
	}
	return Issue{Path: path, Keyword: keyword, Message: fmt.Sprintf(
		"%s: %d of its items match the schema under \"contains\"; at least %d must (minContains)", field, matched, s.MinContains)}, true
}
