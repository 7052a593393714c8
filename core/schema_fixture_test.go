package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// schemaFixtures is the directory of the schema fixtures, under
// tests/fixtures; the JS side replays the function_to_schema cases that
// carry a js source.
const schemaFixtures = "schema"

func TestCleanDocFixtures(t *testing.T) {
	var fx struct {
		Cases []struct {
			Name     string `json:"name"`
			Doc      string `json:"doc"`
			Expected string `json:"expected"`
		} `json:"cases"`
	}
	fixture.Load(t, schemaFixtures, "cleandoc.json", &fx)
	require.NotEmpty(t, fx.Cases)
	for _, tc := range fx.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			got := CleanDoc(tc.Doc)
			assert.Equal(t, tc.Expected, got, "got %q, want %q", got, tc.Expected)
		})
	}
}

func TestDocstringFixtures(t *testing.T) {
	var fx struct {
		Cases []struct {
			Name     string `json:"name"`
			Doc      string `json:"doc"`
			Style    string `json:"style"`
			Error    Code   `json:"error"`
			Message  string `json:"message"`
			Expected *struct {
				Description *string           `json:"description"`
				Params      map[string]string `json:"params"`
			} `json:"expected"`
		} `json:"cases"`
	}
	fixture.Load(t, schemaFixtures, "docstrings.json", &fx)
	require.NotEmpty(t, fx.Cases)
	for _, tc := range fx.Cases {
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
	var fx struct {
		Cases []schemaFixtureCase `json:"cases"`
	}
	fixture.Load(t, schemaFixtures, "function_to_schema.json", &fx)
	require.NotEmpty(t, fx.Cases)
	for _, tc := range fx.Cases {
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
