package provider

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The keywords of Gemini's legacy subset, from the Schema type of
// @google/genai (dist/genai.d.ts) and the Gemini API's refusals (see
// docs/provider-transforms.md).

// geminiKept are the keywords the subset has and the transform keeps as they
// are (type, enum, format, items and the unions are rewritten elsewhere).
var geminiKept = map[string]bool{
	"type": true, "description": true, "title": true, "default": true, "nullable": true,
	"enum": true, "const": true, "example": true, "items": true, "prefixItems": true,
	"properties": true, "required": true, "anyOf": true, "minimum": true, "maximum": true,
	"pattern": true, "format": true, "propertyOrdering": true,
}

// geminiCounts are the subset's integer keywords, int64 in its protocol:
// written as JSON strings of digits, the form @google/genai's Schema type
// declares.
var geminiCounts = map[string]bool{
	"minItems": true, "maxItems": true, "minLength": true, "maxLength": true,
	"minProperties": true, "maxProperties": true,
}

// geminiDescribed are validation keywords the subset lacks that a model
// should still read: written into the description.
var geminiDescribed = map[string]bool{
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true, "uniqueItems": true,
}

// geminiFormats are the formats Gemini accepts, per type ("enum" too
// wherever there is an enum). Gemini refuses others for STRING with "only
// 'enum' and 'date-time' are supported for STRING type".
var geminiFormats = map[string]map[string]bool{
	"STRING":  {"date-time": true, "enum": true},
	"NUMBER":  {"float": true, "double": true},
	"INTEGER": {"int32": true, "int64": true},
}

// keywords applies the per-keyword rules to o's own keywords.
func (g *geminiWalk) keywords(o *schemaObj, path string) {
	for _, k := range append([]string(nil), o.keys...) {
		v := o.vals[k]
		at := pointerTo(path, k)
		switch {
		case v == nil && k != "const":
			o.del(k)
			g.change(at, ChangeNullRemoved, k, fmt.Sprintf("%q was null, which Gemini does not accept; left out", k))
		case k == "description" || k == "title":
			if _, ok := v.(string); !ok {
				o.del(k)
				g.change(at, ChangeKeywordDropped, k, fmt.Sprintf("%q is not a string; left out", k))
			}
		case geminiKept[k]:
		case geminiCounts[k]:
			g.count(o, k, v, at)
		case geminiDescribed[k]:
			o.del(k)
			if k == "uniqueItems" && v != true {
				g.change(at, ChangeKeywordDropped, k, "uniqueItems false asks nothing; left out")
				continue
			}
			addDescription(o, describeKeyword(k, v))
			g.change(at, ChangeKeywordDescribed, k, fmt.Sprintf("Gemini's subset has no %q; written into the description (toolgate still checks it)", k))
		default:
			g.drop(o, k, v, at)
		}
	}
}

// count writes an integer keyword as a string of digits, or describes it.
func (g *geminiWalk) count(o *schemaObj, k string, v any, at string) {
	if n, ok := v.(json.Number); ok && jsontext.IsIntegerText(string(n)) && !strings.HasPrefix(string(n), "-") {
		o.set(k, string(n))
		g.change(at, ChangeKeywordRespelled, k, fmt.Sprintf("%s %s written as the string %q, Gemini's form of its int64 counts", k, n, string(n)))
		return
	}
	o.del(k)
	addDescription(o, describeKeyword(k, v))
	g.change(at, ChangeKeywordDescribed, k, fmt.Sprintf("%q is not a count Gemini accepts; written into the description", k))
}

// drop leaves out a keyword the subset does not have.
func (g *geminiWalk) drop(o *schemaObj, k string, v any, at string) {
	o.del(k)
	switch {
	case k == "additionalProperties" && v == false:
		// Gemini writes only the declared properties, but the model is no
		// longer told the object is closed: said, not silent.
		g.change(at, ChangeKeywordDropped, k, "Gemini's subset has no additionalProperties: the object is no longer said to be closed (Gemini writes only the declared properties; toolgate still refuses other keys)")
	case k == "$defs" || k == "definitions":
		g.change(at, ChangeKeywordDropped, k, "definitions left out: each $ref to them is inlined")
	case k == "examples":
		if list, ok := v.([]any); ok && len(list) > 0 && !o.has("example") {
			o.set("example", list[0])
			g.change(at, ChangeKeywordRewritten, k, "examples written as example, its first value")
			return
		}
		g.change(at, ChangeKeywordDropped, k, "examples left out")
	case validationKeywords[k]:
		g.change(at, ChangeKeywordDropped, k, fmt.Sprintf("Gemini's subset has no %q; left out (toolgate still checks it)", k))
	default:
		g.change(at, ChangeKeywordDropped, k, fmt.Sprintf("Gemini's subset has no %q; left out", k))
	}
}

// typeOf writes o's type upper-case, inferring a missing one from o's other
// keywords; a schema that accepts any value becomes an anyOf of every type,
// and typeOf reports that it is then complete.
func (g *geminiWalk) typeOf(o *schemaObj, path string) bool {
	if o.has("anyOf") {
		return false
	}
	at := pointerTo(path, "type")
	sent, _ := o.vals["type"].(string)
	if t := strings.ToLower(sent); jsonTypes[t] {
		if up := strings.ToUpper(t); sent != up {
			o.set("type", up)
			if o.typeWritten {
				return false
			}
			g.change(at, ChangeKeywordRespelled, "type", fmt.Sprintf("type %q written as %s, the spelling of Gemini's Type enum", sent, up))
		}
		return false
	}
	t := ""
	if o.has("type") {
		o.del("type")
		g.change(at, ChangeKeywordDropped, "type", fmt.Sprintf("type %s is not a JSON type; left out", rawJSON(o.vals["type"])))
	}
	if t = inferType(o); t != "" {
		o.set("type", strings.ToUpper(t))
		g.change(at, ChangeKeywordRewritten, "type", fmt.Sprintf("type %s inferred from the other keywords, as Gemini requires a type", strings.ToUpper(t)))
		return false
	}
	o.set("anyOf", geminiAny().vals["anyOf"])
	g.change(at, ChangeKeywordRewritten, "type", "a schema without a type accepts any value: written as an anyOf of every type, as Gemini requires a type")
	return true
}

// inferType returns the type o's keywords imply, or "".
func inferType(o *schemaObj) string {
	has := func(keys ...string) bool {
		for _, k := range keys {
			if o.has(k) {
				return true
			}
		}
		return false
	}
	switch {
	case has("properties", "required", "additionalProperties", "minProperties", "maxProperties", "patternProperties", "propertyNames"):
		return "object"
	case has("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"):
		return "array"
	case has("enum"):
		list, _ := o.vals["enum"].([]any)
		return valuesType(list)
	case has("const"):
		return valuesType([]any{o.vals["const"]})
	case has("minLength", "maxLength", "pattern", "format"):
		return "string"
	case has("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
		return "number"
	}
	return ""
}

// valuesType is the one type of the non-null values, "string" when they
// mix types, "null" when there are only nulls.
func valuesType(values []any) string {
	t := ""
	for _, v := range values {
		var vt string
		switch x := v.(type) {
		case nil:
			continue
		case string:
			vt = "string"
		case bool:
			vt = "boolean"
		case json.Number:
			vt = "number"
			if jsontext.IsIntegerText(string(x)) {
				vt = "integer"
			}
		default:
			return "string"
		}
		switch {
		case t == "" || t == vt:
			t = vt
		case (t == "integer" && vt == "number") || (t == "number" && vt == "integer"):
			t = "number"
		default:
			return "string"
		}
	}
	if t == "" {
		return "null"
	}
	return t
}

// enum writes const as a one-value enum, an enum's null as nullable, and
// non-string values as strings, with format "enum" when the type is not
// STRING (as @google/genai's Schema documents: {type: INTEGER, format:
// enum, enum: ["101", "201"]}).
func (g *geminiWalk) enum(o *schemaObj, path string) {
	if c, ok := o.get("const"); ok {
		o.del("const")
		if c == nil {
			o.set("nullable", true)
		} else {
			o.set("enum", []any{c})
		}
		g.change(pointerTo(path, "const"), ChangeKeywordRewritten, "const", "const written as an enum of its one value")
	}
	v, ok := o.get("enum")
	if !ok {
		return
	}
	at := pointerTo(path, "enum")
	list, _ := v.([]any)
	out, stringified := make([]any, 0, len(list)), false
	for _, e := range list {
		switch x := e.(type) {
		case nil:
			o.set("nullable", true)
		case string:
			out = append(out, x)
		default:
			out = append(out, rawJSON(x))
			stringified = true
		}
	}
	if len(out) == 0 {
		o.del("enum")
		return
	}
	o.set("enum", out)
	if stringified || o.str("type") != "STRING" {
		if o.str("type") != "STRING" {
			o.set("format", "enum")
		}
		g.change(at, ChangeEnumStringified, "enum", "enum values written as strings, as Gemini's enum holds strings only (toolgate still checks the original values)")
	}
}

// format keeps a format Gemini accepts for the type and describes others.
func (g *geminiWalk) format(o *schemaObj, path string) {
	v, ok := o.get("format")
	if !ok {
		return
	}
	f, _ := v.(string)
	if geminiFormats[o.str("type")][f] || (f == "enum" && o.has("enum")) {
		return
	}
	o.del("format")
	addDescription(o, describeKeyword("format", v))
	g.change(pointerTo(path, "format"), ChangeKeywordDescribed, "format", fmt.Sprintf("Gemini does not accept format %s here; written into the description", rawJSON(v)))
}
