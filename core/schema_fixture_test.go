package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The JSON fixtures in tests/fixtures/schema are shared with the JS side.
const schemaFixtureDir = "../tests/fixtures/schema"

func loadSchemaFixture(t *testing.T, file string, cases any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(schemaFixtureDir, file))
	require.NoError(t, err)
	var doc struct {
		Cases json.RawMessage `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.NoError(t, json.Unmarshal(doc.Cases, cases))
}

func TestCleanDocFixtures(t *testing.T) {
	var cases []struct {
		Name     string `json:"name"`
		Doc      string `json:"doc"`
		Expected string `json:"expected"`
	}
	loadSchemaFixture(t, "cleandoc.json", &cases)
	require.NotEmpty(t, cases)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			got := CleanDoc(tc.Doc)
			assert.Equal(t, tc.Expected, got, "got %q, want %q", got, tc.Expected)
		})
	}
}

func TestDocstringFixtures(t *testing.T) {
	var cases []struct {
		Name     string `json:"name"`
		Doc      string `json:"doc"`
		Style    string `json:"style"`
		Error    Code   `json:"error"`
		Message  string `json:"message"`
		Expected *struct {
			Description *string           `json:"description"`
			Params      map[string]string `json:"params"`
		} `json:"expected"`
	}
	loadSchemaFixture(t, "docstrings.json", &cases)
	require.NotEmpty(t, cases)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			got, err := ExtractDocstring(tc.Doc, tc.Style)
			if tc.Error != "" {
				require.Error(t, err, "got %+v, want error %s", got, tc.Error)
				assert.True(t, errors.Is(err, &Error{Code: tc.Error}), "code: got %v, want %s", err, tc.Error)
				if tc.Message != "" {
					assert.Equal(t, tc.Message, AsError(err).Message, "message: got %q, want %q", AsError(err).Message, tc.Message)
				}
				return
			}
			require.NoError(t, err)
			require.NotNil(t, tc.Expected, "fixture has neither expected nor error")
			assert.Equal(t, tc.Expected.Description, got.Description, "description: got %v, want %v", got.Description, tc.Expected.Description)
			assert.Equal(t, tc.Expected.Params, got.Params, "params: got %v, want %v", got.Params, tc.Expected.Params)
		})
	}
}

// schemaFixtureOptions are the options of a function_to_schema fixture, with
// the JS option names.
type schemaFixtureOptions struct {
	DocstringStyle        string            `json:"docstringStyle"`
	Description           string            `json:"description"`
	ParameterDescriptions map[string]string `json:"parameterDescriptions"`
	Strict                bool              `json:"strict"`
	SchemaMode            SchemaMode        `json:"schemaMode"`
	RequestOptions        json.RawMessage   `json:"requestOptions"`
}

type schemaFixtureCase struct {
	Name      string               `json:"name"`
	Signature json.RawMessage      `json:"signature"`
	Options   schemaFixtureOptions `json:"options"`
	JS        *string              `json:"js"`
	Expected  json.RawMessage      `json:"expected"`
	Error     Code                 `json:"error"`
}

func TestFunctionToSchemaFixtures(t *testing.T) {
	var cases []schemaFixtureCase
	loadSchemaFixture(t, "function_to_schema.json", &cases)
	require.NotEmpty(t, cases)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var sig Signature
			require.NoError(t, json.Unmarshal(tc.Signature, &sig))
			opts := &SchemaOptions{
				Style:                 tc.Options.DocstringStyle,
				RequestOptions:        tc.Options.RequestOptions,
				Strict:                tc.Options.Strict,
				FuncDescription:       tc.Options.Description,
				ParameterDescriptions: tc.Options.ParameterDescriptions,
				Mode:                  tc.Options.SchemaMode,
			}
			got, err := FunctionToSchema(sig, opts)
			if tc.Error != "" {
				require.Error(t, err, "got %s, want error %s", got, tc.Error)
				assert.True(t, errors.Is(err, &Error{Code: tc.Error}), "code: got %v, want %s", err, tc.Error)
				return
			}
			require.NoError(t, err)
			require.NotEmpty(t, tc.Expected, "fixture has neither expected nor error")
			assert.JSONEq(t, string(tc.Expected), string(got), "got %s, want %s", got, tc.Expected)
			wantKeys, err := keyOrder(tc.Expected)
			require.NoError(t, err)
			gotKeys, err := keyOrder(got)
			require.NoError(t, err)
			assert.Equal(t, wantKeys, gotKeys, "key order: got %v, want %v", gotKeys, wantKeys)
		})
	}
}

// TestFunctionToSchemaFixturesJS checks that each fixture's `js` source, read
// by the rules the JS parser follows, gives exactly the fixture's signature.
func TestFunctionToSchemaFixturesJS(t *testing.T) {
	var cases []schemaFixtureCase
	loadSchemaFixture(t, "function_to_schema.json", &cases)
	n := 0
	for _, tc := range cases {
		if tc.JS == nil {
			continue
		}
		n++
		t.Run(tc.Name, func(t *testing.T) {
			var want Signature
			require.NoError(t, json.Unmarshal(tc.Signature, &want))
			assert.Equal(t, CleanDoc(want.Doc), want.Doc, "a js fixture's doc must already be clean: got %q", want.Doc)
			got, err := parseFixtureJS(*tc.JS)
			require.NoError(t, err)
			assert.Equal(t, canonicalSignature(t, want), canonicalSignature(t, got), "signature of %s", *tc.JS)
		})
	}
	assert.Greater(t, n, 10, "got %d js fixtures, want more than 10", n)
}

func TestParseFixtureJSRefusals(t *testing.T) {
	for _, src := range []string{"const x = 1", "function f(a {", "function f(a) ", "function f({a) {}"} {
		_, err := parseFixtureJS(src)
		assert.Error(t, err, "got no error for %q", src)
	}
}

// canonicalSignature re-encodes a signature with its defaults decoded, so
// equal JSON values compare equal whatever their spelling.
func canonicalSignature(t *testing.T, sig Signature) string {
	t.Helper()
	var v any
	raw, err := json.Marshal(sig)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &v))
	out, err := json.Marshal(v)
	require.NoError(t, err)
	return string(out)
}

// keyOrder lists every object key of a JSON document with its path, in the
// order they appear.
func keyOrder(raw []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out []string
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return nil
		}
		for i := 0; dec.More(); i++ {
			p := fmt.Sprintf("%s/%d", path, i)
			if d == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				p = path + "/" + k.(string)
				out = append(out, p)
			}
			if err := walk(p); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return out, walk("")
}

var (
	fixtureJSHead    = regexp.MustCompile(`^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)?\s*\(`)
	fixtureJSDocLine = regexp.MustCompile(`^[ \t]*\*? ?`)
)

// parseFixtureJS reads the small JS subset the fixtures use: a function
// declaration with plain, defaulted, rest and one-level destructured
// parameters, and a docstring that is the body's first block comment (each
// line's leading " * " removed) or its first statement as a double-quoted
// string literal, then cleandoc. A default that is valid JSON is kept as
// Default; any other default only sets HasDefault.
func parseFixtureJS(src string) (Signature, error) {
	m := fixtureJSHead.FindStringSubmatchIndex(src)
	if m == nil {
		return Signature{}, fmt.Errorf("not a function declaration")
	}
	sig := Signature{Params: []Param{}}
	if m[2] >= 0 {
		sig.Name = src[m[2]:m[3]]
	}
	end, err := matchingClose(src, m[1]-1)
	if err != nil {
		return Signature{}, err
	}
	sig.Params, err = parseFixtureParams(src[m[1]:end], true)
	if err != nil {
		return Signature{}, err
	}
	body := strings.TrimSpace(src[end+1:])
	if !strings.HasPrefix(body, "{") {
		return Signature{}, fmt.Errorf("no body")
	}
	body = strings.TrimSpace(body[1:])
	switch {
	case strings.HasPrefix(body, "/*"):
		inner, _, ok := strings.Cut(strings.TrimLeft(body[2:], "*"), "*/")
		if !ok {
			return Signature{}, fmt.Errorf("unterminated comment")
		}
		lines := strings.Split(inner, "\n")
		for i, l := range lines {
			lines[i] = fixtureJSDocLine.ReplaceAllString(l, "")
		}
		sig.Doc = CleanDoc(strings.Join(lines, "\n"))
	case strings.HasPrefix(body, `"`):
		var s string
		if err := json.NewDecoder(strings.NewReader(body)).Decode(&s); err != nil {
			return Signature{}, err
		}
		sig.Doc = CleanDoc(s)
	}
	return sig, nil
}

// parseFixtureParams parses a comma-separated parameter list; top is false
// inside a destructuring pattern, where "...rest" and nested patterns are
// fields.
func parseFixtureParams(list string, top bool) ([]Param, error) {
	params := []Param{}
	for _, part := range splitTopLevel(list) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		var p Param
		switch {
		case strings.HasPrefix(part, "..."):
			p = Param{Name: strings.TrimSpace(part[3:]), Kind: ParamRest}
		case strings.HasPrefix(part, "{") && top:
			end, err := matchingClose(part, 0)
			if err != nil {
				return nil, err
			}
			fields, err := parseFixtureParams(part[1:end], false)
			if err != nil {
				return nil, err
			}
			p = Param{Kind: ParamDestructured, Fields: fields}
			if def, ok := strings.CutPrefix(strings.TrimSpace(part[end+1:]), "="); ok {
				p.HasDefault = true
				p.Default = fixtureDefault(def)
			}
		default:
			name, def, ok := strings.Cut(part, "=")
			p = Param{Name: strings.TrimSpace(name)}
			if ok {
				p.HasDefault = true
				p.Default = fixtureDefault(def)
			}
		}
		params = append(params, p)
	}
	return params, nil
}

func fixtureDefault(text string) json.RawMessage {
	text = strings.TrimSpace(text)
	if !json.Valid([]byte(text)) {
		return nil
	}
	return json.RawMessage(text)
}

// splitTopLevel splits on commas outside brackets and double-quoted strings.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start, inString := 0, 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// matchingClose returns the index of the bracket closing the one at open.
func matchingClose(s string, open int) (int, error) {
	depth, inString := 0, false
	for i := open; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("unbalanced brackets in %q", s)
}
