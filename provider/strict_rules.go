package provider

import (
	"fmt"
	"strings"
)

// The rules of OpenAI's strict mode (Structured Outputs, used by function
// tools with "strict": true), from OpenAI's "Supported schemas" guide, the
// strict transform of the openai package (src/lib/transform.ts) and of
// @openai/agents (utils/strictToolSchema.ts), and pydantic-ai's OpenAI
// schema transformer. docs/provider-transforms.md gives the sources of
// each rule.

// Limits of strict mode, from OpenAI's guide.
const (
	// strictMaxNesting is the deepest nesting of object schemas.
	strictMaxNesting = 10
	// strictMaxProperties is the most object properties of a whole schema.
	strictMaxProperties = 5000
	// strictMaxStringSize is the longest total, in characters, of every
	// property name, definition name, enum value and const value.
	strictMaxStringSize = 120000
	// strictMaxEnumValues is the most enum values of a whole schema.
	strictMaxEnumValues = 1000
	// strictLargeEnum is the number of values past which one string enum's
	// values may total at most strictMaxLargeEnumSize characters.
	strictLargeEnum        = 250
	strictMaxLargeEnumSize = 15000
)

// strictRefused are the keywords strict mode cannot express: a schema
// using one is refused, never rewritten.
var strictRefused = map[string]string{
	"allOf":                 "strict mode does not support allOf",
	"not":                   "strict mode does not support not",
	"if":                    "strict mode does not support if/then/else",
	"then":                  "strict mode does not support if/then/else",
	"else":                  "strict mode does not support if/then/else",
	"dependentRequired":     "strict mode does not support dependentRequired",
	"dependentSchemas":      "strict mode does not support dependentSchemas",
	"dependencies":          "strict mode does not support dependencies",
	"patternProperties":     "strict mode closes every object, so property names matched by a pattern cannot be allowed",
	"propertyNames":         "strict mode does not support propertyNames",
	"unevaluatedProperties": "strict mode does not support unevaluatedProperties",
	"unevaluatedItems":      "strict mode does not support unevaluatedItems",
	"contains":              "strict mode does not support contains",
	"minContains":           "strict mode does not support minContains",
	"maxContains":           "strict mode does not support maxContains",
	"prefixItems":           "strict mode supports one schema for every array item, not tuples",
	"additionalItems":       "strict mode supports one schema for every array item, not tuples",
	"$dynamicRef":           "strict mode supports only local $ref to the root or its definitions",
	"$dynamicAnchor":        "strict mode supports only local $ref to the root or its definitions",
	"$recursiveRef":         "strict mode supports only local $ref to the root or its definitions",
	"$recursiveAnchor":      "strict mode supports only local $ref to the root or its definitions",
	"$anchor":               "strict mode supports only local $ref to the root or its definitions",
}

// strictKept are the keywords strict mode accepts and the transform keeps
// as they are (format only for the formats of strictFormats, pattern only
// without lookaround).
var strictKept = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "anyOf": true, "enum": true, "const": true, "$ref": true,
	"$defs": true, "definitions": true, "description": true, "title": true, "default": true,
	"pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true,
	// Annotations the openai package's own strict transform passes through.
	"$comment": true, "examples": true, "readOnly": true, "writeOnly": true,
}

// strictRootKept are kept at the root only (as the openai package does).
var strictRootKept = map[string]bool{"$schema": true, "$id": true}

// strictFormats are the string formats strict mode accepts.
var strictFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true, "email": true,
	"hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// validationKeywords are the JSON Schema keywords that constrain a value
// (applicators and assertions): leaving one out of a provider's copy loses
// nothing, as toolgate validates the arguments against the original schema.
var validationKeywords = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true, "properties": true,
	"patternProperties": true, "additionalProperties": true, "propertyNames": true, "unevaluatedProperties": true,
	"items": true, "prefixItems": true, "additionalItems": true, "contains": true, "minContains": true,
	"maxContains": true, "unevaluatedItems": true, "type": true, "enum": true, "const": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
	"maxLength": true, "minLength": true, "pattern": true, "maxItems": true, "minItems": true,
	"uniqueItems": true, "maxProperties": true, "minProperties": true, "required": true, "format": true,
	"$ref": true, "$dynamicRef": true, "$recursiveRef": true,
}

// annotationKeys may stand beside $ref or anyOf in strict mode.
var annotationKeys = map[string]bool{"description": true, "title": true, "default": true}

// keywordSentences holds, for each keyword a transform moves into the
// description, the sentence that says what it asks; %s is its value.
var keywordSentences = map[string]string{
	"minLength":        "At least %s characters.",
	"maxLength":        "At most %s characters.",
	"minProperties":    "At least %s properties.",
	"maxProperties":    "At most %s properties.",
	"minItems":         "At least %s items.",
	"maxItems":         "At most %s items.",
	"uniqueItems":      "Items must be unique.",
	"pattern":          "Must match the pattern %s.",
	"minimum":          "At least %s.",
	"maximum":          "At most %s.",
	"exclusiveMinimum": "Greater than %s.",
	"exclusiveMaximum": "Less than %s.",
	"multipleOf":       "A multiple of %s.",
	"examples":         "Examples: %s.",
}

// describeKeyword returns a sentence saying what keyword k with value v
// asks, for a description: "k: v." for a keyword without a sentence of
// its own.
func describeKeyword(k string, v any) string {
	val := string(appendSchemaTree(nil, v))
	if k == "format" {
		return "Format: " + strings.Trim(val, `"`) + "."
	}
	sentence, ok := keywordSentences[k]
	if !ok {
		return fmt.Sprintf("%s: %s.", k, val)
	}
	if !strings.Contains(sentence, "%s") {
		return sentence
	}
	if val == "1" { // "At least 1 character.", not "1 characters."
		sentence = strings.NewReplacer("characters.", "character.", "properties.", "property.", "items.", "item.").Replace(sentence)
	}
	return fmt.Sprintf(sentence, val)
}

// addDescription appends sentence to o's description (creating it).
func addDescription(o *schemaObj, sentence string) {
	if d := o.str("description"); d != "" {
		sep := " "
		if !strings.HasSuffix(d, ".") && !strings.HasSuffix(d, "!") && !strings.HasSuffix(d, "?") {
			sep = ". "
		}
		o.set("description", d+sep+sentence)
		return
	}
	o.set("description", sentence)
}

// hasLookaround reports whether a regular expression uses lookahead or
// lookbehind, which strict mode's patterns do not support.
func hasLookaround(pattern string) bool {
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '\\' {
			i++
			continue
		}
		rest := pattern[i:]
		if strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") ||
			strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!") {
			return true
		}
	}
	return false
}

// jsonTypes are the names "type" may use.
var jsonTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true,
	"object": true, "array": true, "null": true,
}

// typeNames returns the names of o's "type" (one or a list) and whether it
// is well formed: present, a known name or a non-empty list of them.
func typeNames(o *schemaObj) ([]string, bool) {
	switch t := o.vals["type"].(type) {
	case string:
		return []string{t}, jsonTypes[t]
	case []any:
		names := make([]string, 0, len(t))
		for _, e := range t {
			s, ok := e.(string)
			if !ok || !jsonTypes[s] {
				return nil, false
			}
			names = append(names, s)
		}
		return names, len(names) > 0
	}
	return nil, false
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
