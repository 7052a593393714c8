package core

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func strPtr(s string) *string { return &s }

func TestExtractDocstringGoogle(t *testing.T) {
	tests := []struct {
		name   string
		doc    string
		desc   *string
		params map[string]string
	}{
		{
			name:   "description is the first line only",
			doc:    "Summary.\n    Second summary line.\n\n    Args:\n        x: the x\n    ",
			desc:   strPtr("Summary."),
			params: map[string]string{"x": "the x"},
		},
		{
			name:   "type in parentheses and space before the colon are cut",
			doc:    "Do.\n    Args:\n        x (int, optional): The x\n        y : d\n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "The x", "y": "d"},
		},
		{
			name:   "continuation appends a space and the stripped line",
			doc:    "Do.\n    Args:\n        x: one\n           two\n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "one two"},
		},
		{
			name:   "continuation with a colon starts a bogus parameter",
			doc:    "Do.\n    Args:\n        x: first part\n            and: more\n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "first part", "and": "more"},
		},
		{
			name:   "an unindented line ends the section",
			doc:    "Do.\n    Args:\n        x: the x\n    Returns:\n        y: no\n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "the x"},
		},
		{
			name:   "a whitespace-only line longer than the margin appends a space",
			doc:    "Do.\n    Args:\n        x: X.\n          \n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "X. "},
		},
		{
			name:   "the header test is a prefix test",
			doc:    "Do.\n    Argsomething here\n        x: the x\n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "the x"},
		},
		{
			name:   "headers are matched case-insensitively after stripping",
			doc:    "Do.\n      PARAMETERS  \n        x: the x\n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "the x"},
		},
		{
			name:   "a header on the first line is never found",
			doc:    "Args:\n        x: the x\n",
			desc:   strPtr("Args:"),
			params: map[string]string{},
		},
		{
			name:   "without a header there are no parameters",
			doc:    "Do.\n        x: the x\n",
			desc:   strPtr("Do."),
			params: map[string]string{},
		},
		{
			name:   "the last of two equal names wins",
			doc:    "Do.\n    Args:\n        x: one\n        x: two\n",
			desc:   strPtr("Do."),
			params: map[string]string{"x": "two"},
		},
		{
			name:   "only the first colon splits",
			doc:    "Do.\n    Args:\n        url: http://h/a:b\n",
			desc:   strPtr("Do."),
			params: map[string]string{"url": "http://h/a:b"},
		},
		{
			name:   "an empty name is kept",
			doc:    "Do.\n    Args:\n        : nameless\n",
			desc:   strPtr("Do."),
			params: map[string]string{"": "nameless"},
		},
		{
			name:   "missing docstring",
			doc:    "",
			params: map[string]string{},
		},
		{
			name:   "blank lines only",
			doc:    "\n\n",
			params: map[string]string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExtractDocstring(tc.doc, "google")
			require.NoError(t, err)
			assert.Equal(t, tc.desc, got.Description, "description: got %v, want %v", got.Description, tc.desc)
			require.NotNil(t, got.Params, "params: got nil, want a map")
			assert.Equal(t, tc.params, got.Params, "params: got %v, want %v", got.Params, tc.params)
		})
	}
}

func TestExtractDocstringRest(t *testing.T) {
	tests := []struct {
		name   string
		doc    string
		params map[string]string
	}{
		{"name is the last word", "Do.\n    :param int y: d\n", map[string]string{"y": "d"}},
		{"continuations are dropped", "Do.\n    :param a: first\n        more\n", map[string]string{"a": "first"}},
		{"an empty description is kept", "Do.\n    :param a:\n", map[string]string{"a": ""}},
		{"a third colon stays in the description", "Do.\n    :param u: see http://x:80\n", map[string]string{"u": "see http://x:80"}},
		{":type, :returns and :raises are ignored", "Do.\n:type a: int\n:returns: x\n:raises E: y\n", map[string]string{}},
		{"a :param line on the first line is the description", ":param a: first\n", map[string]string{}},
		{"':param:' names the parameter 'param'", "Do.\n:param: d\n", map[string]string{"param": "d"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExtractDocstring(tc.doc, "rest")
			require.NoError(t, err)
			assert.Equal(t, tc.params, got.Params, "params: got %v, want %v", got.Params, tc.params)
		})
	}
}

func TestExtractDocstringRefusals(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		style   string
		message string // exact message when non-empty, else a fragment
		exact   bool
	}{
		{"google continuation before any parameter (KeyError)", "Do.\n    Args:\n          orphan\n        x: y\n", "google", "continues a parameter description", false},
		{"google indented first line after leading blank line (KeyError)", "\n   x\ny", "google", `line 1 "   x"`, false},
		{"rest :param without a second colon (ValueError)", "Do.\n    :param x\n", "rest", `no ":" after the parameter name`, false},
		{"unknown style", "Do.", "numpy", `numpy is not supported. Please choose either "google" or "reST".`, true},
		{"unknown style is reported stripped and lower-cased", "Do.", "  NumPy ", `numpy is not supported. Please choose either "google" or "reST".`, true},
		{"whitespace-only style is not the default", "Do.", "  ", ` is not supported. Please choose either "google" or "reST".`, true},
		{"unknown style refused even without docstring", "", "numpy", "numpy is not supported", false},
		{"style lower-casing follows Python for U+0130", "", "İ", "i\u0307 is not supported", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ExtractDocstring(tc.doc, tc.style)
			require.Error(t, err)
			var e *Error
			require.True(t, errors.As(err, &e), "got %T, want *Error", err)
			assert.True(t, errors.Is(err, ErrInvalidTool), "code: got %s, want %s", e.Code, CodeInvalidTool)
			if tc.exact {
				assert.Equal(t, tc.message, e.Message, "message: got %q, want %q", e.Message, tc.message)
			} else {
				assert.Contains(t, e.Message, tc.message, "message: got %q, want it to contain %q", e.Message, tc.message)
			}
		})
	}
}

func TestExtractDocstringStyleMatching(t *testing.T) {
	doc := "Do.\n    Args:\n        x: gx\n    :param y: ry\n"
	tests := []struct {
		style  string
		params map[string]string
	}{
		{"", map[string]string{"x": "gx"}},
		{"google", map[string]string{"x": "gx"}},
		{" GOOGLE\t", map[string]string{"x": "gx"}},
		{"rest", map[string]string{"y": "ry"}},
		{"reST", map[string]string{"y": "ry"}},
		{"\n REST ", map[string]string{"y": "ry"}},
	}
	for _, tc := range tests {
		t.Run(tc.style, func(t *testing.T) {
			got, err := ExtractDocstring(doc, tc.style)
			require.NoError(t, err)
			assert.Equal(t, tc.params, got.Params, "params: got %v, want %v", got.Params, tc.params)
		})
	}
}

func TestCleanDoc(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"first line lstripped", "   S.\n    b\n", "S.\nb"},
		{"common margin of later lines removed", "S.\n        a\n          b\n", "S.\na\n  b"},
		{"first line does not count for the margin", "    S.\n  a\n    b", "S.\na\n  b"},
		{"tabs expand to 8 columns", "S.\n\ta\n\t  b\n  \tc", "S.\na\n  b\nc"},
		{"tab column restarts after CR", "S.\n ab\r\tc", "S.\nab\r        c"},
		{"leading and trailing empty lines dropped", "\n\n  S.\n  b\n\n\n", "S.\nb"},
		{"whitespace-only line keeps the excess", "S.\n    a\n       \n    b", "S.\na\n   \nb"},
		{"whitespace-only line shorter than the margin emptied", "S.\n    a\n  \n    b", "S.\na\n\nb"},
		{"trailing whitespace line longer than the margin kept", "S.\n    a\n      ", "S.\na\n  "},
		{"U+001C..U+001F are whitespace", "S.\n\x1c\x1d a\n\x1c\x1d b", "S.\na\nb"},
		{"a wide space is one column", "S.\n\u3000\u3000a\n\u3000b", "S.\n\u3000a\nb"},
		{"a leading blank line leaves the second line unstripped", "\n   x\ny", "   x\ny"},
		{"invalid UTF-8 bytes are kept", "S.\n  \xff\n  b", "S.\n\xff\nb"},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CleanDoc(tc.doc)
			assert.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
}

// FuzzExtractDocstring checks, for any docstring and style, that parsing never
// panics, that refusals are invalid-tool errors, and the invariants each
// parser guarantees: the description is one stripped line of the cleaned
// docstring; google names never hold ':', '(' or a newline and are stripped;
// rest names are one non-empty word without ':'; descriptions are one line;
// cleandoc leaves no tab and no leading or trailing empty line. (Exact
// agreement with Python was checked separately by differential runs.)
func FuzzExtractDocstring(f *testing.F) {
	f.Add("Add two numbers.\n\n    Args:\n        a (int): first\n        b: second\n            more\n", "google")
	f.Add("Do.\n    :param int a: first\n    :param b: second\n", "rest")
	f.Add("Do.\n    Args:\n          orphan\n", "google")
	f.Add("Do.\n    :param x\n", " REST ")
	f.Add("\n   x\ny", "google")
	f.Add("S.\n\t\x1c a:\r\n\u3000b", "numpy")
	f.Fuzz(func(t *testing.T, doc, style string) {
		got, err := ExtractDocstring(doc, style)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidTool {
				t.Fatalf("error: got %v, want an invalid-tool *Error", err)
			}
			return
		}
		if got.Params == nil {
			t.Fatal("params: got nil, want a map")
		}
		cleaned := CleanDoc(doc)
		if cleaned == "" {
			if got.Description != nil || len(got.Params) != 0 {
				t.Fatalf("empty docstring: got %v %v, want nil and no params", got.Description, got.Params)
			}
			return
		}
		if got.Description == nil {
			t.Fatal("description: got nil for a non-empty docstring")
		}
		first, _, _ := strings.Cut(cleaned, "\n")
		if *got.Description != pyStrip(first) {
			t.Fatalf("description: got %q, want the stripped first line %q", *got.Description, pyStrip(first))
		}
		isRest := pyLower(pyStrip(style)) == "rest"
		for name, desc := range got.Params {
			if strings.Contains(desc, "\n") {
				t.Fatalf("param %q description %q has a newline", name, desc)
			}
			if isRest {
				if name == "" || strings.ContainsAny(name, ":") || strings.IndexFunc(name, pyIsSpace) >= 0 {
					t.Fatalf("rest name %q: want one word without ':'", name)
				}
				if !strings.Contains(cleaned, ":param") {
					t.Fatalf("rest param %q without any :param line", name)
				}
			} else {
				if strings.ContainsAny(name, ":(\n") || name != pyStrip(name) {
					t.Fatalf("google name %q: want stripped, without ':', '(' or newline", name)
				}
				if !strings.Contains(cleaned, name) {
					t.Fatalf("google name %q does not occur in the docstring", name)
				}
			}
		}
		if strings.Contains(cleaned, "\t") || strings.HasPrefix(cleaned, "\n") || strings.HasSuffix(cleaned, "\n") {
			t.Fatalf("cleandoc %q: want tabs expanded and no leading or trailing empty line", cleaned)
		}
	})
}
