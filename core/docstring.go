package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Docstring is what a docstring parser extracts.
type Docstring struct {
	// Description is the first line, stripped; nil when there is no docstring.
	Description *string
	// Params maps parameter names to their descriptions. It is never nil.
	Params map[string]string
}

// Docstring styles, as ExtractDocstring matches them (after trimming and
// lower-casing).
const (
	// DocstringGoogle is the Google style ("Args:" followed by indented
	// "name (type): description" lines). It is the default.
	DocstringGoogle = "google"
	// DocstringRest is the reST style (":param name: description" lines).
	DocstringRest = "rest"
)

// ExtractDocstring parses doc (raw, before cleandoc) in the given style, exactly
// as LionAGI's extract_docstring does, quirks included:
//
//   - doc is first normalised like Python's inspect.cleandoc (CleanDoc); an
//     empty result gives a nil Description and no Params;
//   - the description is the first line only;
//   - google: parameters start after the first line (index ≥ 1) that, trimmed
//     and lower-cased, begins with "args", "parameters", "params" or
//     "arguments" (a prefix test: "Argsomething" counts); each following line
//     that starts with a space is split at its first ':' into
//     name (cut at the first '(' and trimmed) and description; a line without
//     ':' continues the current parameter's description; a line that does not
//     start with a space ends the section. A continuation line that contains
//     ':' starts a new (bogus) parameter. A continuation before any parameter
//     is refused (LionAGI raises KeyError);
//   - rest: every trimmed ":param" line is split into at most three parts on
//     ':'; the name is the last word of the second part; a ":param" line with
//     no second ':' is refused (LionAGI raises ValueError); continuation lines
//     are ignored.
//
// style is matched after trimming whitespace and lower-casing; "" means
// "google". Any other style is refused with LionAGI's message
// `<style> is not supported. Please choose either "google" or "reST".`.
// Every refusal is an *Error with code invalid-tool and no tool name.
func ExtractDocstring(doc string, style string) (Docstring, error) {
	s := DocstringGoogle
	if style != "" {
		s = pyLower(pyStrip(style))
	}
	switch s {
	case DocstringGoogle:
		return parseGoogle(doc)
	case DocstringRest:
		return parseRest(doc)
	}
	return Docstring{Params: map[string]string{}}, Errorf(CodeInvalidTool, "",
		`%s is not supported. Please choose either "google" or "reST".`, s)
}

// googleHeaders are the prefixes that open the parameter section of a
// Google-style docstring.
var googleHeaders = []string{"args", "parameters", "params", "arguments"}

// docLines is what both parsers start with: the cleandoc'd lines and the
// description (the first line, stripped); no lines for an empty docstring.
func docLines(doc string) (Docstring, []string) {
	out := Docstring{Params: map[string]string{}}
	cleaned := CleanDoc(doc)
	if cleaned == "" {
		return out, nil
	}
	lines := strings.Split(cleaned, "\n")
	desc := pyStrip(lines[0])
	out.Description = &desc
	return out, lines
}

// parseGoogle is LionAGI's _extract_docstring_details_google.
func parseGoogle(doc string) (Docstring, error) {
	out, lines := docLines(doc)
	if lines == nil {
		return out, nil
	}

	start := 0
	for i := 1; i < len(lines); i++ {
		if hasAnyPrefix(pyLower(pyStrip(lines[i])), googleHeaders) {
			start = i + 1
			break
		}
	}
	current, haveCurrent := "", false
	for i := start; i < len(lines); i++ {
		line := lines[i]
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, " "):
			before, after, found := strings.Cut(line, ":")
			if !found {
				if !haveCurrent {
					return out, Errorf(CodeInvalidTool, "",
						"docstring (google style): line %d %q continues a parameter description, but no parameter has been named before it",
						i+1, line)
				}
				out.Params[current] += " " + pyStrip(before)
				continue
			}
			name, _, _ := strings.Cut(before, "(")
			name = pyStrip(name)
			out.Params[name] = pyStrip(after)
			current, haveCurrent = name, true
		default:
			return out, nil
		}
	}
	return out, nil
}

// parseRest is LionAGI's _extract_docstring_details_rest.
func parseRest(doc string) (Docstring, error) {
	out, lines := docLines(doc)
	if lines == nil {
		return out, nil
	}

	for i := 1; i < len(lines); i++ {
		line := pyStrip(lines[i])
		if !strings.HasPrefix(line, ":param") {
			// LionAGI's continuation branch tests startswith(" ") on a
			// stripped line, so it never runs: continuations are dropped.
			continue
		}
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			return out, Errorf(CodeInvalidTool, "",
				`docstring (rest style): line %d %q has no ":" after the parameter name`, i+1, line)
		}
		words := strings.FieldsFunc(parts[1], pyIsSpace)
		// parts[1] starts with "param", so words is never empty.
		out.Params[words[len(words)-1]] = pyStrip(parts[2])
	}
	return out, nil
}

// CleanDoc normalises a docstring exactly as Python 3.11's inspect.cleandoc:
// tabs are expanded to 8 columns (the column restarting after "\n" and "\r"),
// the first line is left-stripped, the smallest indentation of the non-blank
// lines after the first is removed from every later line (whitespace-only
// lines shorter than it become empty, longer ones keep the excess), and
// leading and trailing empty lines are dropped. Whitespace and lengths are
// Python's: code points, and str.isspace (which includes U+001C–U+001F).
// Invalid UTF-8 bytes are kept and count as one column each.
func CleanDoc(doc string) string {
	lines := strings.Split(expandTabs(doc, 8), "\n")
	margin := -1
	for _, line := range lines[1:] {
		content := runeCount(pyLStrip(line))
		if content > 0 {
			indent := runeCount(line) - content
			if margin < 0 || indent < margin {
				margin = indent
			}
		}
	}
	lines[0] = pyLStrip(lines[0])
	if margin >= 0 {
		for i := 1; i < len(lines); i++ {
			lines[i] = dropRunes(lines[i], margin)
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// expandTabs is Python's str.expandtabs(size).
func expandTabs(s string, size int) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\t':
			pad := size - col%size
			b.WriteString(strings.Repeat(" ", pad))
			col += pad
		case '\n', '\r':
			b.WriteString(s[i : i+n])
			col = 0
		default:
			b.WriteString(s[i : i+n])
			col++
		}
		i += n
	}
	return b.String()
}

// pyIsSpace is Python's str.isspace for one code point: Go's unicode.IsSpace
// plus the ASCII separators U+001C–U+001F.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyStrip is Python's str.strip() with no arguments.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pyLStrip is Python's str.lstrip() with no arguments.
func pyLStrip(s string) string { return strings.TrimLeftFunc(s, pyIsSpace) }

// pyLower approximates Python's str.lower(): Go's per-rune lower-casing plus
// the one unconditional multi-rune mapping (U+0130 → "i̇"). The Greek final
// sigma rule is not applied; only error messages can show the difference.
func pyLower(s string) string {
	if !strings.ContainsRune(s, 'İ') {
		return strings.ToLower(s)
	}
	return strings.ToLower(strings.ReplaceAll(s, "İ", "i\u0307"))
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// runeCount counts code points, an invalid byte counting as one.
func runeCount(s string) int { return utf8.RuneCountInString(s) }

// dropRunes is Python's s[n:] on code points.
func dropRunes(s string, n int) string {
	for i := 0; i < n && s != ""; i++ {
		_, size := utf8.DecodeRuneInString(s)
		s = s[size:]
	}
	return s
}
