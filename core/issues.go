package core

// Issues: turning a validator's error tree into the model-ready list of
// problems an invalid-arguments or invalid-schema error carries (a JSON
// pointer, the keyword, a message naming the field), sorted and de-duplicated.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// clipText shortens s to at most n bytes (not cutting a UTF-8 sequence) for
// a message, marking the cut with "…".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// argumentsError is the invalid-arguments error of a failed validation.
func argumentsError(tool string, issues []Issue) *Error {
	subject := "the parameters schema"
	if tool != "" {
		subject = "the parameters schema of tool " + strconv.Quote(tool) // %q, without fmt on the error path
	}
	issues = boundIssues(issues)
	return &Error{Code: CodeInvalidArguments, Tool: tool, Issues: issues,
		Message: clipText("arguments do not match "+subject+": "+summarizeIssues(issues), MaxErrorMessageBytes)}
}

// omittedKeyword is the keyword of the last issue of a report cut at
// MaxIssues.
const omittedKeyword = "maxIssues"

// boundIssues keeps a report within its limits: the first MaxIssues issues
// of a sorted list, then (if there were more) one saying how many were left
// out, each message clipped to MaxIssueMessageBytes.
func boundIssues(issues []Issue) []Issue {
	if len(issues) > MaxIssues {
		omitted := len(issues) - MaxIssues
		issues = append(issues[:MaxIssues:MaxIssues], Issue{Path: "", Keyword: omittedKeyword,
			Message: fmt.Sprintf("%d more issues are not listed: a report lists at most %d", omitted, MaxIssues)})
	}
	for i := range issues {
		issues[i].Message = clipText(issues[i].Message, MaxIssueMessageBytes)
	}
	return issues
}

// summarizeIssues joins the first issue messages for an error message (at
// most MaxErrorMessageBytes), ending with what a cut report left out.
func summarizeIssues(issues []Issue) string {
	const shown = 5
	var omitted string
	if n := len(issues); n > 0 && issues[n-1].Keyword == omittedKeyword {
		omitted = "; " + issues[n-1].Message
		issues = issues[:n-1]
	}
	var b strings.Builder
	for i, is := range issues {
		if i == shown {
			fmt.Fprintf(&b, "; and %d more", len(issues)-shown)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(is.Message)
	}
	b.WriteString(omitted)
	return clipText(b.String(), MaxErrorMessageBytes)
}

// describeField names the place a JSON pointer designates, for messages:
// "field /a/0/b", or the subject itself for the root.
func describeField(ptr, subject string) string {
	if ptr == "" {
		if subject == "schema" {
			return "schema root"
		}
		return subject
	}
	if subject == "schema" {
		return "schema at " + ptr
	}
	return "field " + ptr
}

// sortIssues orders issues by path (array indexes numerically), keyword and
// message, and removes repeats, so errors are deterministic.
func sortIssues(issues []Issue) []Issue {
	sort.SliceStable(issues, func(i, j int) bool {
		a, b := issues[i], issues[j]
		if a.Path != b.Path {
			return jsontext.Less(a.Path, b.Path)
		}
		if a.Keyword != b.Keyword {
			return a.Keyword < b.Keyword
		}
		return a.Message < b.Message
	})
	out := issues[:0]
	for i, is := range issues {
		if i > 0 && is == issues[i-1] {
			continue
		}
		out = append(out, is)
	}
	return out
}
