package provider

// The text a model reads when its call did not complete, and the JSON of a
// Gemini output that JavaScript can read exactly.

import (
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// FailureText is the model-readable text of a result that did not
// complete: what happened to which tool (with the error code when toolgate
// refused the call), the message, one line per problem found in the
// arguments (its field as a JSON Pointer, its rule as the schema keyword,
// and the message), and a short instruction saying how to correct the call
// and try again. A result without an error is "".
func FailureText(r *ToolResult) string {
	if r == nil || r.Error == nil {
		return ""
	}
	e := r.Error
	tool := "the tool"
	if r.Function != "" {
		tool = "tool " + strconv.Quote(r.Function)
	}
	var b strings.Builder
	b.WriteString(failureHead(tool, r.Status, e.Code))
	if e.Code != "" {
		b.WriteString(" (" + string(e.Code) + ")")
	}
	if len(e.Issues) == 0 && e.Code != core.CodeToolNotFound {
		b.WriteString(": " + strings.TrimRight(e.Message, " ."))
	}
	b.WriteString(".")
	for _, is := range e.Issues {
		field := issueField(is.Path, issueSubject(e.Code))
		msg := strings.TrimPrefix(is.Message, field+": ")
		b.WriteString("\n- " + field + ", rule " + strconv.Quote(is.Keyword) + ": " + msg)
	}
	b.WriteString("\n" + failureAdvice(tool, r.Status, e.Code))
	return b.String()
}

// failureHead says what happened to the call.
func failureHead(tool string, status core.Status, code core.Code) string {
	switch {
	case code == core.CodeToolNotFound:
		return "The call was refused: there is no " + tool
	case code == core.CodeInvalidArguments:
		return "The call of " + tool + " was refused: its arguments are not valid"
	case code == core.CodeInvalidRequest:
		return "The call of " + tool + " could not be read"
	case code == core.CodeTimeout:
		return "The call of " + tool + " did not finish in time"
	case code == core.CodeToolError:
		return "The call of " + tool + " ran and the tool reported an error"
	case code == core.CodeInvalidResult:
		return "The call of " + tool + " returned a result that breaks its output schema"
	case status == core.StatusCancelled || status == core.StatusAborted:
		return "The call of " + tool + " was cancelled"
	case status == "":
		return "The call of " + tool + " was refused"
	}
	return "The call of " + tool + " failed"
}

// issueField names the field at ptr as core's issue messages do ("field
// <ptr>: ..."), subject for the root, so FailureText does not repeat it.
func issueField(ptr, subject string) string {
	if ptr == "" {
		return subject
	}
	return "field " + ptr
}

// issueSubject is what the issues of an error point into.
func issueSubject(code core.Code) string {
	if code == core.CodeInvalidResult {
		return "the structuredContent"
	}
	return "the arguments"
}

// failureAdvice is the instruction that ends a failure text.
func failureAdvice(tool string, status core.Status, code core.Code) string {
	switch {
	case code == core.CodeToolNotFound:
		return "Call one of the tools you were given, by its exact name."
	case code == core.CodeInvalidArguments, code == core.CodeInvalidRequest:
		return "Correct the arguments (a JSON object matching the parameters schema of " + tool + ") and call it again."
	case code == core.CodeTimeout, status == core.StatusCancelled, status == core.StatusAborted:
		return "Try the call again, or with less to do."
	}
	return "Check the arguments and try again, or solve the task another way."
}

// quoteBigIntegers rewrites valid JSON text so that every integer literal
// beyond ±(2^53−1) is a string of its exact digits (JavaScript's numbers
// would round it); everything else is kept byte for byte.
func quoteBigIntegers(data []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			i = jsontext.EndOfString(data, i) - 1
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(data) && strings.IndexByte("0123456789.eE+-", data[j]) >= 0 {
				j++
			}
			if lit := data[i:j]; jsontext.IsIntegerText(string(lit)) && jsontext.BigInteger(lit) {
				out = append(append(out, data[last:i]...), '"')
				out = append(append(out, lit...), '"')
				last = j
			}
			i = j - 1
		}
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}
