package core

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// validateSafely is validateValue behind a recover: a fault in the validator
// becomes an internal error instead of a crash, and nothing is let through.
func (s *CompiledSchema) validateSafely(tool string, v any) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			err = Errorf(CodeInternal, tool, "arguments could not be validated: validator fault: %v", r)
		}
	}()
	return s.validateValue(tool, v)
}

// validateValue validates any JSON value (decoded with UseNumber) against the
// schema, without coercion. It returns nil or an invalid-arguments error
// listing every leaf failure (invalid-schema when the schema loops).
func (s *CompiledSchema) validateValue(tool string, v any) *Error {
	if !numbersSafe(v) {
		return argumentsError(tool, sortIssues(unsafeNumbers(v, nil, nil)))
	}
	sch, cerr := s.validator(tool)
	if cerr != nil {
		return cerr
	}
	return validateWith(sch, tool, v)
}

// numbersSafe reports whether unsafeNumbers would find nothing, without
// allocating.
func numbersSafe(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return jsontext.ValidNumber(string(x)) && numberInRange(string(x))
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return numbersSafe(float64(x))
	case map[string]any:
		for _, e := range x {
			if !numbersSafe(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !numbersSafe(e) {
				return false
			}
		}
	}
	return true
}

// unsafeNumbers lists the numbers the validator cannot handle exactly: a
// json.Number that is not a JSON number literal or whose exponent is beyond
// MaxNumberExponent, and NaN or infinite floats.
func unsafeNumbers(v any, path []string, issues []Issue) []Issue {
	switch x := v.(type) {
	case json.Number:
		if !jsontext.ValidNumber(string(x)) {
			p := jsontext.Join("", path...)
			issues = append(issues, Issue{Path: p, Keyword: "type",
				Message: describeField(p, "arguments") + ": " + strconv.Quote(clipText(string(x), 40)) + " is not a JSON number"})
		} else if !numberInRange(string(x)) {
			p := jsontext.Join("", path...)
			issues = append(issues, Issue{Path: p, Keyword: "maxExponent",
				Message: fmt.Sprintf("%s: the number %s has a decimal exponent beyond ±%d", describeField(p, "arguments"), clipText(string(x), 40), MaxNumberExponent)})
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			p := jsontext.Join("", path...)
			issues = append(issues, Issue{Path: p, Keyword: "type", Message: describeField(p, "arguments") + ": NaN and infinities are not JSON numbers"})
		}
	case float32:
		return unsafeNumbers(float64(x), path, issues)
	case map[string]any:
		for k, e := range x {
			issues = unsafeNumbers(e, append(path, k), issues)
		}
	case []any:
		for i, e := range x {
			switch e.(type) {
			case string, bool, nil:
				continue // the common case, without formatting an index
			}
			issues = unsafeNumbers(e, append(path, strconv.Itoa(i)), issues)
		}
	}
	return issues
}

// ValidateValue checks any JSON value (decoded with UseNumber) against the
// schema without coercion and returns the problems found, each with its
// JSON Pointer, keyword and message (nil when v conforms). A schema that
// loops or a validator fault is returned as the error. MCP results use it
// for structuredContent against a tool's outputSchema.
func (s *CompiledSchema) ValidateValue(tool string, v any) ([]Issue, error) {
	e := s.validateSafely(tool, v)
	if e == nil {
		return nil, nil
	}
	if e.Code == CodeInvalidArguments {
		return e.Issues, nil
	}
	return nil, e
}
