package core

// The rules of a tool's name: what every tool, local or not, must meet when
// it is created. Names are otherwise free (LionAGI takes a function's
// name as it is): a provider's stricter rules are met by rewriting the
// name when the tool is exported (provider.OpenAINames).

import (
	"fmt"
	"unicode/utf8"
)

// CheckToolName refuses a name no tool may have, with invalid-tool naming
// the tool and one issue (path /function/name) whose keyword names the
// rule, the message saying where the name breaks it:
//
//   - minLength: the name is empty;
//   - maxLength: the name is longer than MaxToolNameBytes bytes;
//   - utf8: the name is not valid UTF-8 (the byte position is given);
//   - controlCharacter: the name holds a control character, C0 (U+0000 to
//     U+001F, NUL, tab and newline included), DEL (U+007F) or C1 (U+0080
//     to U+009F) (the character and its byte position are given). Such a
//     name cannot be shown, logged or sent as one line, and NUL ends a
//     name in C strings.
//
// Every other name is accepted: spaces, dots, letters of any script.
func CheckToolName(name string) error {
	switch {
	case name == "":
		return nameError(name, "minLength", "a tool name must not be empty")
	case len(name) > MaxToolNameBytes:
		return nameError(clipText(name, 40), "maxLength",
			fmt.Sprintf("the tool name is %d bytes, more than the limit of %d", len(name), MaxToolNameBytes))
	}
	for i, r := range name {
		switch {
		case r == utf8.RuneError && !validRuneAt(name, i):
			return nameError(clipText(name, 40), "utf8", fmt.Sprintf("the tool name is not valid UTF-8 at byte %d", i))
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			return nameError(name, "controlCharacter",
				fmt.Sprintf("the tool name %q holds the control character U+%04X at byte %d; control characters are not allowed in tool names", name, r, i))
		}
	}
	return nil
}

// validRuneAt reports whether the UTF-8 sequence at s[i] is valid (a real
// U+FFFD rather than a decoding error).
func validRuneAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size == 3
}

// nameError is the invalid-tool error of a name breaking the rule keyword.
func nameError(tool, keyword, msg string) *Error {
	return &Error{Code: CodeInvalidTool, Tool: tool, Message: msg + ".",
		Issues: []Issue{{Path: "/function/name", Keyword: keyword, Message: msg}}}
}

// firstNonEmpty is a when it is not empty, else b.
func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
