package core

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// validationFixtures holds the validation contract shared with the JS side,
// under tests/fixtures.
const validationFixtures = "validation"

// validationCase is one case of a fixture file (see its "about").
type validationCase struct {
	Name      string          `json:"name"`
	Schema    json.RawMessage `json:"schema"`
	Arguments string          `json:"arguments"`
	Coerce    CoerceMode      `json:"coerce"`
	Strict    bool            `json:"strict"`
	Minimum   []string        `json:"minimum"`
	Expect    struct {
		OK          bool         `json:"ok"`
		Arguments   string       `json:"arguments"`
		Conversions []Conversion `json:"conversions"`
		Code        Code         `json:"code"`
		Issues      []pk         `json:"issues"`
	} `json:"expect"`
}

// UnmarshalJSON reads an issue's path and keyword.
func (p *pk) UnmarshalJSON(b []byte) error {
	var v struct{ Path, Keyword string }
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = pk{v.Path, v.Keyword}
	return nil
}

// runValidationCase runs the fixture pipeline and returns the normalised
// arguments and conversions, or the error.
func runValidationCase(tc validationCase) (*Arguments, []Conversion, error) {
	args, err := DecodeArguments("fixture", []byte(tc.Arguments))
	if err != nil {
		return nil, nil, err
	}
	var convs []Conversion
	if len(tc.Schema) > 0 && string(tc.Schema) != "null" {
		schema := []byte(tc.Schema)
		var text string
		if json.Unmarshal(tc.Schema, &text) == nil {
			schema = []byte(text)
		}
		cs, err := CompileSchema("fixture", schema)
		if err != nil {
			return nil, nil, err
		}
		if args, convs, err = cs.Normalize("fixture", args, tc.Coerce); err != nil {
			return nil, nil, err
		}
		if tc.Strict {
			required, ok := cs.Required()
			if !ok {
				return nil, nil, Errorf(CodeInvalidSchema, "fixture", "the schema has no required")
			}
			if err := checkStrict("fixture", args, required); err != nil {
				return nil, nil, err
			}
		}
	}
	if tc.Minimum != nil {
		if err := checkNonStrict("fixture", args, tc.Minimum); err != nil {
			return nil, nil, err
		}
	}
	return args, convs, nil
}

func TestFixtureValidation(t *testing.T) {
	files := fixture.Files(t, validationFixtures)
	names := map[string]bool{}
	for _, file := range files {
		var doc struct {
			About string           `json:"about"`
			Cases []validationCase `json:"cases"`
		}
		fixture.Load(t, validationFixtures, file, &doc)
		require.NotEmpty(t, doc.About, "fixture %s has no about", file)
		require.NotEmpty(t, doc.Cases, "fixture %s has no cases", file)
		t.Run(file, func(t *testing.T) {
			for _, tc := range doc.Cases {
				require.False(t, names[tc.Name], "case name %q repeats", tc.Name)
				names[tc.Name] = true
				t.Run(tc.Name, func(t *testing.T) {
					out, convs, err := runValidationCase(tc)
					if tc.Expect.OK {
						require.NoError(t, err, "got %v, want success", err)
						got := marshalArgs(t, out)
						assert.Equal(t, tc.Expect.Arguments, got, "got %s, want %s", got, tc.Expect.Arguments)
						want := tc.Expect.Conversions
						if len(want) == 0 {
							want = nil
						}
						assert.Equal(t, want, convs, "got conversions %v, want %v", convs, want)
						return
					}
					require.Error(t, err, "got %s, want an error", marshalArgs(t, out))
					var e *Error
					require.True(t, errors.As(err, &e), "got %T, want *Error", err)
					assert.Equal(t, tc.Expect.Code, e.Code, "got code %s, want %s (%v)", e.Code, tc.Expect.Code, err)
					want := tc.Expect.Issues
					if want == nil {
						want = []pk{}
					}
					assert.Equal(t, want, issuePKs(e.Issues), "got issues %v, want %v", e.Issues, want)
				})
			}
		})
	}
}

// TestFixtureValidationFastPath replays the fixtures' schemas and arguments
// through the fast path wherever it covers the schema, and asserts it does
// what Normalize does (verdict, issues, arguments, conversions).
func TestFixtureValidationFastPath(t *testing.T) {
	var cases, answered int
	for _, file := range fixture.Files(t, validationFixtures) {
		var doc struct {
			Cases []validationCase `json:"cases"`
		}
		fixture.Load(t, validationFixtures, file, &doc)
		for _, tc := range doc.Cases {
			schema := []byte(tc.Schema)
			var text string
			if json.Unmarshal(tc.Schema, &text) == nil {
				schema = []byte(text)
			}
			if len(tc.Schema) == 0 || string(tc.Schema) == "null" {
				continue
			}
			cs, err := CompileSchema("fixture", schema)
			if err != nil || cs.parts().fast == nil {
				continue
			}
			cases++
			t.Run(tc.Name, func(t *testing.T) {
				if compareFast(t, cs, []byte(tc.Arguments), tc.Coerce) {
					answered++
				}
			})
		}
	}
	t.Logf("the fast path covers the schemas of %d fixture cases and answers %d", cases, answered)
}
