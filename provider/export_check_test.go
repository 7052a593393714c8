package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// The checker below is written from each provider's documented rules, not
// from the export's code: a tool list that passes it is one the provider's
// API accepts as far as its documentation says (docs/providers.md cites
// each rule).

// providerNamePatterns are the documented tool name rules.
var providerNamePatterns = map[string]*regexp.Regexp{
	core.ProviderOpenAIChat:      regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	core.ProviderOpenAIResponses: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	core.ProviderAnthropic:       regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	core.ProviderGemini:          regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$`),
	MCP:                          regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`),
}

// declaration is one exported tool as the checker reads it.
type declaration struct {
	name, paramsKey string
	fields          map[string]any // the object holding name, description and the parameters
	strict          bool
}

// checkProviderTools returns every rule the exported tools break (nil when
// none): the target's shape, its name rule, unique names, no null-valued key
// anywhere, a description that is a non-empty string when present, an
// object schema for the parameters (without the root keywords OpenAI and
// Anthropic refuse), property schemas that are objects, and for a tool
// exported strict OpenAI's strict rules.
//
// Property names outside Anthropic's rule (every properties map) or Gemini
// legacy's (the root's) break the rules too, unless report (when given)
// warns of that very name with a ChangePropertyNameRefused change: toolgate
// does not rename properties, and says so.
func checkProviderTools(target string, tools any, report ...*ExportReport) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	warned := map[string]bool{}
	for _, r := range report {
		for _, c := range r.Changes {
			if c.Kind == ChangePropertyNameRefused {
				// by name: the path is the original schema's, and a root union's variants move
				toks := jsontext.Tokens(c.Path)
				if len(toks) > 0 {
					warned[c.Tool+" "+toks[len(toks)-1]] = true
				}
			}
		}
	}
	nullKeys("", tools, fail)
	decls := declarationsOf(target, tools, fail)
	seen := map[string]bool{}
	for i, d := range decls {
		at := fmt.Sprintf("tool %d (%s)", i, d.name)
		if !providerNamePatterns[target].MatchString(d.name) {
			fail("%s: the name breaks %s's rule %s", at, target, providerNamePatterns[target])
		}
		if seen[d.name] {
			fail("%s: the name is used twice", at)
		}
		seen[d.name] = true
		if desc, ok := d.fields["description"]; ok {
			if s, isString := desc.(string); !isString || s == "" {
				fail("%s: description must be a non-empty string, got %#v", at, desc)
			}
		}
		params, ok := d.fields[d.paramsKey]
		if !ok {
			if target == core.ProviderGemini {
				continue // Gemini: a function without parameters may leave them unset
			}
			fail("%s: no %s", at, d.paramsKey)
			continue
		}
		checkRootSchema(target, at, d.paramsKey, params, fail)
		registered := d.name
		for _, r := range report {
			registered = r.Names[d.name]
		}
		checkPropertyNames(target, d.paramsKey, params, func(path, name string) {
			if !warned[registered+" "+name] {
				fail("%s: the property name %q at %q breaks %s's rule, unreported", at, name, path, target)
			}
		})
		if d.strict {
			checkStrictNode(at, "", params, fail)
		}
	}
	return bad
}

// declarationsOf reads the target's shape: its wrapping, the keys each tool
// must have and no others.
func declarationsOf(target string, tools any, fail func(string, ...any)) []declaration {
	list, ok := tools.([]any)
	if !ok {
		fail("tools must be a JSON array, got %T", tools)
		return nil
	}
	if target == core.ProviderGemini {
		var flat []any
		for i, entry := range list {
			m, _ := entry.(map[string]any)
			keysOnly(fmt.Sprintf("gemini tool %d", i), m, []string{"functionDeclarations"}, []string{"functionDeclarations"}, fail)
			fds, ok := m["functionDeclarations"].([]any)
			if !ok {
				fail("gemini tool %d: functionDeclarations must be an array", i)
			}
			flat = append(flat, fds...)
		}
		list = flat
	}
	out := make([]declaration, 0, len(list))
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			fail("tool %d must be an object", i)
			continue
		}
		at := fmt.Sprintf("tool %d", i)
		var d declaration
		switch target {
		case core.ProviderOpenAIChat:
			keysOnly(at, m, []string{"type", "function"}, []string{"type", "function"}, fail)
			if m["type"] != "function" {
				fail(`%s: type must be "function"`, at)
			}
			fn, _ := m["function"].(map[string]any)
			keysOnly(at+".function", fn, []string{"name", "parameters"}, []string{"name", "description", "parameters", "strict"}, fail)
			if s, has := fn["strict"]; has && s != true {
				fail("%s: strict must be true when present, got %#v", at, s)
			}
			d = declaration{paramsKey: "parameters", fields: fn, strict: fn["strict"] == true}
		case core.ProviderOpenAIResponses:
			keysOnly(at, m, []string{"type", "name", "parameters", "strict"}, []string{"type", "name", "description", "parameters", "strict"}, fail)
			if m["type"] != "function" {
				fail(`%s: type must be "function"`, at)
			}
			if _, isBool := m["strict"].(bool); !isBool {
				fail("%s: strict must be a boolean, got %#v", at, m["strict"])
			}
			d = declaration{paramsKey: "parameters", fields: m, strict: m["strict"] == true}
		case core.ProviderAnthropic:
			keysOnly(at, m, []string{"name", "input_schema"}, []string{"name", "description", "input_schema", "input_examples"}, fail)
			if ex, ok := m["input_examples"]; ok {
				items, isArray := ex.([]any)
				for _, item := range items {
					if _, isObject := item.(map[string]any); !isObject {
						isArray = false
					}
				}
				if !isArray {
					fail("%s: input_examples must be an array of objects, got %#v", at, ex)
				}
			}
			d = declaration{paramsKey: "input_schema", fields: m}
		case core.ProviderGemini:
			keysOnly(at, m, []string{"name"}, []string{"name", "description", "parametersJsonSchema", "parameters"}, fail)
			_, a := m["parametersJsonSchema"]
			_, b := m["parameters"]
			if a && b {
				fail("%s: parameters and parametersJsonSchema are mutually exclusive", at)
			}
			d = declaration{paramsKey: "parametersJsonSchema", fields: m}
			if b {
				d.paramsKey = "parameters"
			}
		case MCP:
			keysOnly(at, m, []string{"name", "inputSchema"}, []string{"name", "description", "inputSchema"}, fail)
			d = declaration{paramsKey: "inputSchema", fields: m}
		}
		d.name, _ = d.fields["name"].(string)
		out = append(out, d)
	}
	return out
}

// checkPropertyNames calls bad for each property name the target's rule
// refuses: Anthropic's ^[a-zA-Z0-9_.-]{1,64}$ in every properties map,
// Gemini's legacy ^[a-zA-Z_][a-zA-Z0-9_]{0,63}$ for the root's.
func checkPropertyNames(target, key string, params any, bad func(path, name string)) {
	switch {
	case target == core.ProviderAnthropic:
		walkProperties("", params, true, regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`), bad)
	case target == core.ProviderGemini && key == "parameters":
		walkProperties("", params, false, regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`), bad)
	}
}

// walkProperties checks the names of a schema node's properties and, with
// deep, those of every subschema below it (JSON Schema 2020-12's
// applicators; an extension keyword's value is no schema).
func walkProperties(path string, node any, deep bool, rule *regexp.Regexp, bad func(path, name string)) {
	v, ok := node.(map[string]any)
	if !ok {
		return
	}
	for k, x := range v {
		p := path + "/" + jsontextEscape(k)
		switch k {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			m, _ := x.(map[string]any)
			for name, sub := range m {
				sp := p + "/" + jsontextEscape(name)
				if k == "properties" && !rule.MatchString(name) {
					bad(sp, name)
				}
				if deep {
					walkProperties(sp, sub, deep, rule, bad)
				}
			}
		case "items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems",
			"contains", "propertyNames", "not", "if", "then", "else", "anyOf", "oneOf", "allOf", "prefixItems":
			if !deep {
				continue
			}
			if list, isList := x.([]any); isList {
				for i, sub := range list {
					walkProperties(fmt.Sprintf("%s/%d", p, i), sub, deep, rule, bad)
				}
			} else {
				walkProperties(p, x, deep, rule, bad)
			}
		}
	}
}

// jsontextEscape escapes a JSON Pointer token.
func jsontextEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// keysOnly checks that m has every required key and no key outside allowed.
func keysOnly(at string, m map[string]any, required, allowed []string, fail func(string, ...any)) {
	if m == nil {
		fail("%s must be an object", at)
		return
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			fail("%s: %q is missing", at, k)
		}
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			fail("%s: %q is not a key of the format", at, k)
		}
	}
}

// checkRootSchema checks the root of a parameters schema.
func checkRootSchema(target, at, key string, params any, fail func(string, ...any)) {
	root, ok := params.(map[string]any)
	if !ok {
		fail("%s: %s must be an object schema, got %T", at, key, params)
		return
	}
	if key == "parameters" && target == core.ProviderGemini {
		// the legacy OpenAPI subset: Gemini refuses an object without properties
		// ("should be non-empty for OBJECT type"); its other rules are the
		// legacy transform's tests' to check
		if props, ok := root["properties"].(map[string]any); !ok || len(props) == 0 {
			fail("%s: Gemini's legacy parameters must have properties", at)
		}
		checkLegacyNode(at, "", root, fail)
		return
	}
	if root["type"] != "object" {
		fail(`%s: %s must have "type": "object", got %#v`, at, key, root["type"])
	}
	if target != MCP {
		for _, kw := range []string{"anyOf", "oneOf", "allOf", "enum", "const", "not"} {
			if _, has := root[kw]; has {
				fail("%s: %s must not have %q at the root (OpenAI and Anthropic refuse it)", at, key, kw)
			}
		}
	}
	if props, has := root["properties"]; has {
		pm, ok := props.(map[string]any)
		if !ok {
			fail("%s: properties must be an object", at)
		}
		for name, s := range pm {
			if _, isObj := s.(map[string]any); !isObj {
				fail("%s: the schema of property %q must be an object, got %#v", at, name, s)
			}
		}
	}
}

// legacyTypes are the values of @google/genai's Type enum.
var legacyTypes = []string{"TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}

// legacyUnsupported are JSON Schema keywords the OpenAPI 3.0 subset of
// Gemini's Schema has no field for.
var legacyUnsupported = []string{"$ref", "$defs", "definitions", "oneOf", "allOf", "not", "const", "additionalProperties", "if", "then", "else", "patternProperties", "prefixItems", "$schema"}

// checkLegacyNode checks Gemini's legacy Schema rules at a node and below:
// a type from the Type enum (one, not a list), string enum values, none of
// the JSON Schema keywords the subset lacks.
func checkLegacyNode(at, path string, node map[string]any, fail func(string, ...any)) {
	if t, has := node["type"]; has {
		if s, ok := t.(string); !ok || !slices.Contains(legacyTypes, s) {
			fail("%s: legacy: the type at %q must be one of Gemini's Type values, got %#v", at, path, t)
		}
	}
	for _, kw := range legacyUnsupported {
		if _, has := node[kw]; has {
			fail("%s: legacy: %q at %q is not in Gemini's Schema", at, kw, path)
		}
	}
	if list, has := node["enum"].([]any); has {
		for _, e := range list {
			if _, ok := e.(string); !ok {
				fail("%s: legacy: the enum at %q holds %#v, not a string", at, path, e)
			}
		}
	}
	for _, kw := range []string{"items"} {
		if sub, ok := node[kw].(map[string]any); ok {
			checkLegacyNode(at, path+"/"+kw, sub, fail)
		}
	}
	if props, ok := node["properties"].(map[string]any); ok {
		for k, sub := range props {
			if m, ok := sub.(map[string]any); ok {
				checkLegacyNode(at, path+"/properties/"+k, m, fail)
			}
		}
	}
	if list, ok := node["anyOf"].([]any); ok {
		for i, sub := range list {
			if m, ok := sub.(map[string]any); ok {
				checkLegacyNode(at, fmt.Sprintf("%s/anyOf/%d", path, i), m, fail)
			}
		}
	}
}

// strictUnsupported are the keywords OpenAI's strict mode does not support.
var strictUnsupported = []string{"allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "oneOf"}

// checkStrictNode checks OpenAI's strict rules at a node and below: every
// object has additionalProperties false and lists every property in
// required; no keyword strict mode refuses.
func checkStrictNode(at, path string, node any, fail func(string, ...any)) {
	switch v := node.(type) {
	case []any:
		for i, x := range v {
			checkStrictNode(at, fmt.Sprintf("%s/%d", path, i), x, fail)
		}
		return
	case map[string]any:
		for _, kw := range strictUnsupported {
			if _, has := v[kw]; has {
				fail("%s: strict: %q at %q is not supported by strict mode", at, kw, path)
			}
		}
		if isObjectSchema(v) {
			if v["additionalProperties"] != false {
				fail("%s: strict: the object at %q must have additionalProperties false", at, path)
			}
			props, _ := v["properties"].(map[string]any)
			var names, req []string
			for k := range props {
				names = append(names, k)
			}
			req = append(req, asStrings(v["required"])...)
			sort.Strings(names)
			sort.Strings(req)
			if strings.Join(names, ",") != strings.Join(req, ",") {
				fail("%s: strict: the object at %q must list every property in required: properties %v, required %v", at, path, names, req)
			}
		}
		for k, x := range v {
			if k == "enum" || k == "const" || k == "default" || k == "examples" {
				continue
			}
			checkStrictNode(at, path+"/"+k, x, fail)
		}
	}
}

func isObjectSchema(v map[string]any) bool {
	if v["type"] == "object" {
		return true
	}
	return slices.Contains(asStrings(v["type"]), "object")
}

func asStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// nullKeys reports every key whose value is null, anywhere but inside the
// value of a data keyword (default, const, enum, examples, example: there
// a null is a value). Below a map of subschemas (properties, $defs, …) the
// keys are names, never keywords.
func nullKeys(path string, v any, fail func(string, ...any)) {
	nullKeysIn(path, v, false, fail)
}

func nullKeysIn(path string, v any, names bool, fail func(string, ...any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				fail("the key %s/%s is null", path, k)
			}
			if !names && slices.Contains([]string{"default", "const", "enum", "examples", "example"}, k) {
				continue
			}
			isMap := !names && slices.Contains([]string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}, k)
			nullKeysIn(path+"/"+k, e, isMap, fail)
		}
	case []any:
		for i, e := range x {
			nullKeysIn(fmt.Sprintf("%s/%d", path, i), e, false, fail)
		}
	}
}

// decodeTools decodes exported tools for the checker.
func decodeTools(raw json.RawMessage) (any, error) {
	var v any
	err := json.Unmarshal(raw, &v)
	return v, err
}
