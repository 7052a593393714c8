package core

// The key-set checks LionAGI runs after validation: strict (argument keys
// equal the schema's required) and non-strict (every minimum key present).

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// strictMessage is LionAGI's message for a failed key-set check.
const strictMessage = "arguments must match the function schema"

// checkStrict is LionAGI's strict check: the argument keys must equal required.
//
// Keys match exactly. On failure the error is invalid-arguments with one
// issue per missing key (keyword "required") and per unexpected key (keyword
// "strict"), and a message starting with LionAGI's "arguments must match the
// function schema". A nil args is invalid-request.
func checkStrict(tool string, args *Arguments, required []string) error {
	if args == nil {
		return Errorf(CodeInvalidRequest, tool, "no arguments to check")
	}
	want := make(map[string]struct{}, len(required))
	for _, r := range required {
		want[r] = struct{}{}
	}
	issues := missingIssues(args, required)
	for _, k := range args.OrderedKeys() {
		if _, ok := want[k]; !ok {
			p := jsontext.Join("", k)
			issues = append(issues, Issue{Path: p, Keyword: "strict",
				Message: fmt.Sprintf("argument %q is not in the schema's required set (strict mode takes exactly those)", k)})
		}
	}
	return keySetError(tool, issues)
}

// checkNonStrict is LionAGI's non-strict check: every name in minimum must be
// an argument key.
//
// Extra keys pass. On failure the error is invalid-arguments with one issue
// (keyword "required") per missing name, and a message starting with
// LionAGI's "arguments must match the function schema". A nil args is
// invalid-request.
func checkNonStrict(tool string, args *Arguments, minimum []string) error {
	if args == nil {
		return Errorf(CodeInvalidRequest, tool, "no arguments to check")
	}
	return keySetError(tool, missingIssues(args, minimum))
}

// missingIssues lists the names of want (once each, in order) that args lacks.
func missingIssues(args *Arguments, want []string) []Issue {
	var issues []Issue
	seen := make(map[string]struct{}, len(want))
	for _, r := range want {
		if _, dup := seen[r]; dup {
			continue
		}
		seen[r] = struct{}{}
		if _, ok := args.Values[r]; !ok {
			issues = append(issues, Issue{Path: jsontext.Join("", r), Keyword: "required",
				Message: fmt.Sprintf("argument %q is required but missing", r)})
		}
	}
	return issues
}

// keySetError is nil for no issues, else the key-set check's error.
func keySetError(tool string, issues []Issue) error {
	if len(issues) == 0 {
		return nil
	}
	return &Error{Code: CodeInvalidArguments, Tool: tool, Issues: issues,
		Message: strictMessage + ": " + summarizeIssues(issues)}
}

// takes reports whether a call with signature s accepts the argument key:
// a parameter of that name, a keywords parameter (which takes any key), or
// a field of a destructured parameter (a keywords field takes any key).
func (s Signature) takes(key string) bool {
	for _, p := range s.Params {
		switch p.Kind {
		case ParamKeywords:
			return true
		case ParamDestructured:
			for _, f := range p.Fields {
				if f.Kind == ParamKeywords || f.Name == key {
					return true
				}
			}
		default:
			if p.Name == key {
				return true
			}
		}
	}
	return false
}

// checkSignature is the check a tool's callable makes of its arguments when
// it runs: every key must be taken by a parameter, or the call fails as
// Python's does ("got an unexpected keyword argument"). On failure the
// error is invalid-arguments with one issue (keyword "signature") per key.
// A callable whose signature cannot be read is not checked.
func (t *Tool) checkSignature(args *Arguments) error {
	sig, err := t.signature()
	if err != nil || args == nil {
		return nil
	}
	name := t.Function()
	var issues []Issue
	for _, k := range args.OrderedKeys() {
		if !sig.takes(k) {
			issues = append(issues, Issue{Path: jsontext.Join("", k), Keyword: "signature",
				Message: fmt.Sprintf("argument %q is not a parameter of %s(): the call would fail with \"got an unexpected keyword argument\"", k, name)})
		}
	}
	if len(issues) == 0 {
		return nil
	}
	return &Error{Code: CodeInvalidArguments, Tool: name, Issues: issues,
		Message: "arguments do not fit the signature of " + name + ": " + summarizeIssues(issues)}
}
