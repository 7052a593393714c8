package core

import (
	"encoding/json"
	"errors"
	"fmt"
)

// geminiLegacySchema rewrites a tool's parameters schema into the OpenAPI
// 3.0 subset of Gemini's FunctionDeclaration.parameters. See
// provider_gemini_walk.go and docs/provider-transforms.md for the rules.
func geminiLegacySchema(tool string, params json.RawMessage) (out json.RawMessage, changes []Change, err error) {
	doc, err := parseSchemaTree(params)
	if err != nil {
		return nil, nil, fmt.Errorf("parameters schema of %q: %w", tool, err)
	}
	if _, ok := doc.(*schemaObj); !ok {
		return nil, nil, errors.New("parameters schema of " + fmt.Sprintf("%q", tool) + " is not a JSON object")
	}
	return appendSchemaTree(nil, doc), nil, nil
}
