package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// Mirroring tool arguments into Mcp-Param-* request headers on the
// 2026-07-28 wire, as docs/mcp-headers.md describes: a tool's inputSchema
// may mark a property with "x-mcp-header": "Name", and every tools/call of
// that tool then carries "Mcp-Param-Name: <value>". The functions here are
// pure: parseParamHeaders reads the annotations once, at discovery, and
// refuses a tool whose annotations break a rule; paramHeaderValues turns one
// call's arguments into headers; encodeHeaderValue is the value encoding,
// shared with Mcp-Name.

const (
	// headerAnnotation is the inputSchema keyword naming a mirrored header.
	headerAnnotation = "x-mcp-header"
	// paramHeaderPrefix starts the name of every mirrored header.
	paramHeaderPrefix = "Mcp-Param-"
	// headerBase64Prefix and headerBase64Suffix wrap a Base64-encoded value.
	headerBase64Prefix = "=?base64?"
	headerBase64Suffix = "?="
	// maxSafeHeaderInteger is 2^53−1: an integer further from zero is never
	// mirrored (docs/mcp-headers.md, "Values").
	maxSafeHeaderInteger = 1<<53 - 1
	// maxHeaderSchemaDepth and maxHeaderSchemaNodes bound the walk of a
	// schema that carries an x-mcp-header key: JSON nesting (objects and
	// arrays) deeper than 128, or more than 20000 objects and arrays, makes
	// the tool too complex to check (docs/mcp-headers.md, "Limits").
	maxHeaderSchemaDepth = 128
	maxHeaderSchemaNodes = 20000
)

// The rules an x-mcp-header annotation can break: the Rule of a
// headerRuleError, one per row of docs/mcp-headers.md's table.
const (
	ruleHeaderNotJSON      = "not-json"                 // the inputSchema is not JSON
	ruleHeaderUnreachable  = "not-statically-reachable" // not on a property reached through properties keys only
	ruleHeaderNotString    = "not-a-string"             // the annotation's value is not a string
	ruleHeaderEmpty        = "empty"                    // the annotation is ""
	ruleHeaderNotToken     = "not-a-token"              // the annotation is not an HTTP token
	ruleHeaderDuplicate    = "duplicate"                // two annotations equal ignoring case
	ruleHeaderNoType       = "no-type"                  // the annotated property has no type of its own
	ruleHeaderTypeUnion    = "type-union"               // the annotated property has several types
	ruleHeaderNumber       = "number-type"              // the annotated property is a number
	ruleHeaderNotPrimitive = "not-primitive"            // an object, array or null property, or an unknown type
	ruleHeaderTooComplex   = "too-complex"              // the schema is past the walk's bounds
)

// headerRules lists every Rule a headerRuleError can carry.
var headerRules = []string{
	ruleHeaderNotJSON, ruleHeaderUnreachable, ruleHeaderNotString, ruleHeaderEmpty,
	ruleHeaderNotToken, ruleHeaderDuplicate, ruleHeaderNoType, ruleHeaderTypeUnion,
	ruleHeaderNumber, ruleHeaderNotPrimitive, ruleHeaderTooComplex,
}

// paramHeader is one x-mcp-header annotation of a tool's inputSchema: the header is "Mcp-Param-" + Name,
// its value read from the arguments at Path (a chain of "properties" keys from the root).
type paramHeader struct {
	Name string   // the x-mcp-header value as the server wrote it
	Path []string // the property names from the schema root
	Kind string   // "string", "integer" or "boolean": the annotated property's type
}

// headerRuleError says why a tool's x-mcp-header annotations are invalid: Rule is a short stable id
// (one of headerRules), Path the JSON pointer of the offending annotation ("" when the schema is not
// JSON), Message a sentence for people naming both. Code compares Rule, never Message.
type headerRuleError struct{ Rule, Path, Message string }

// Error returns Message.
func (e *headerRuleError) Error() string { return e.Message }

// ruleBroken builds the headerRuleError of rule at ptr; what completes the
// sentence "the x-mcp-header at <ptr> ...".
func ruleBroken(rule, ptr, what string) *headerRuleError {
	return &headerRuleError{Rule: rule, Path: ptr,
		Message: fmt.Sprintf("the x-mcp-header at %s %s (rule %s)", jsontext.Display(ptr), what, rule)}
}

// parseParamHeaders reads every x-mcp-header annotation of inputSchema (a JSON object). It returns the
// annotations sorted by Path (name by name in byte order, a parent before its children), or a non-nil
// *headerRuleError naming the rule broken and where: the first one met walking the schema depth first,
// members in byte order (docs/mcp-headers.md lists the rules). An empty or null inputSchema,
// a boolean schema and a schema with no x-mcp-header key anywhere have no annotations and break no rule;
// text that is not JSON breaks "not-json". An x-mcp-header inside a keyword that holds data rather than
// schemas (const, enum, default, examples) is data, not an annotation; so is a property named
// "x-mcp-header".
func parseParamHeaders(inputSchema json.RawMessage) ([]paramHeader, *headerRuleError) {
	if jsontext.Absent(inputSchema) {
		return nil, nil
	}
	if !json.Valid(inputSchema) {
		return nil, &headerRuleError{Rule: ruleHeaderNotJSON,
			Message: "the inputSchema is not JSON, so its x-mcp-header annotations cannot be read (rule not-json)"}
	}
	root := jsontext.ParseValid(inputSchema)
	if !hasHeaderKey(root) {
		return nil, nil
	}
	w := headerWalk{seen: map[string]string{}}
	if err := w.schema(root, "", nil, true, 0); err != nil {
		return nil, err
	}
	return w.found, nil
}

// hasHeaderKey reports whether any object in v has an x-mcp-header member.
// It keeps its own stack, so no nesting makes it recurse.
func hasHeaderKey(v any) bool {
	stack := []any{v}
	for len(stack) > 0 {
		v, stack = stack[len(stack)-1], stack[:len(stack)-1]
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v[headerAnnotation]; ok {
				return true
			}
			for _, c := range v {
				stack = append(stack, c)
			}
		case []any:
			stack = append(stack, v...)
		}
	}
	return false
}

// headerWalk collects the annotations of one inputSchema.
type headerWalk struct {
	found []paramHeader
	seen  map[string]string // lower-cased Name → the pointer of its annotation
	nodes int               // objects and arrays visited, against maxHeaderSchemaNodes
}

// schemaMapKeywords hold a map of names to subschemas: the names are
// property (or definition) names, never keywords. Only "properties" keeps a
// chain statically reachable.
var schemaMapKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"dependentSchemas": true, "dependencies": true,
}

// dataKeywords hold instance data, not schemas: nothing in them is an annotation.
var dataKeywords = map[string]bool{"const": true, "enum": true, "default": true, "examples": true}

// schema walks v, found at pointer ptr. path is the chain of property names
// from the root and static says whether that chain is only "properties"
// keys. Every object met is treated as a schema, whatever keyword holds it,
// except under dataKeywords: an annotation in a place no keyword defines
// (reached through $ref or an extension) is not statically reachable either.
func (w *headerWalk) schema(v any, ptr string, path []string, static bool, depth int) *headerRuleError {
	switch v := v.(type) {
	case []any:
		if err := w.count(ptr, depth); err != nil {
			return err
		}
		for i, item := range v {
			if err := w.schema(item, jsontext.Join(ptr, strconv.Itoa(i)), path, false, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		if err := w.count(ptr, depth); err != nil {
			return err
		}
		if name, ok := v[headerAnnotation]; ok {
			if err := w.annotation(v, name, ptr, path, static); err != nil {
				return err
			}
		}
		return w.keywords(v, ptr, path, static, depth)
	}
	return nil
}

// count charges one object or array at ptr against the walk's bounds.
func (w *headerWalk) count(ptr string, depth int) *headerRuleError {
	w.nodes++
	if depth >= maxHeaderSchemaDepth || w.nodes > maxHeaderSchemaNodes {
		return &headerRuleError{Rule: ruleHeaderTooComplex, Path: ptr, Message: fmt.Sprintf(
			"the inputSchema at %s is nested deeper than %d or holds more than %d objects and arrays, too complex to check its x-mcp-header annotations (rule %s)",
			jsontext.Display(ptr), maxHeaderSchemaDepth, maxHeaderSchemaNodes, ruleHeaderTooComplex)}
	}
	return nil
}

// keywords walks the members of the schema object m, in sorted order.
func (w *headerWalk) keywords(m map[string]any, ptr string, path []string, static bool, depth int) *headerRuleError {
	for _, key := range slices.Sorted(maps.Keys(m)) {
		at := jsontext.Join(ptr, key)
		var err *headerRuleError
		switch {
		case key == headerAnnotation || dataKeywords[key]:
			continue
		case schemaMapKeywords[key]:
			err = w.schemaMap(m[key], at, path, static && key == "properties", depth+1)
		default:
			err = w.schema(m[key], at, path, false, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// schemaMap walks a map of names to subschemas found at ptr; with
// properties, each name extends path. Anything but an object holds no
// subschema.
func (w *headerWalk) schemaMap(v any, ptr string, path []string, properties bool, depth int) *headerRuleError {
	m, ok := v.(map[string]any)
	if !ok {
		return w.schema(v, ptr, path, false, depth)
	}
	if err := w.count(ptr, depth); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		next := path
		if properties {
			next = append(path[:len(path):len(path)], name)
		}
		if err := w.schema(m[name], jsontext.Join(ptr, name), next, properties, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// annotation checks the x-mcp-header member value of the schema m at ptr
// and records it: it must sit on a statically reachable property, be a
// non-empty token unique among the tool's names whatever their case, and
// annotate a string, integer or boolean property.
func (w *headerWalk) annotation(m map[string]any, value any, ptr string, path []string, static bool) *headerRuleError {
	at := jsontext.Join(ptr, headerAnnotation)
	name, isString := value.(string)
	switch {
	case !static || len(path) == 0:
		return ruleBroken(ruleHeaderUnreachable, at,
			"is not on a property reached from the root through properties keys only")
	case !isString:
		return ruleBroken(ruleHeaderNotString, at, "is "+jsontext.Described(jsontext.KindOf(value))+", not a string")
	case name == "":
		return ruleBroken(ruleHeaderEmpty, at, "is empty")
	case !isHeaderToken(name):
		return ruleBroken(ruleHeaderNotToken, at, fmt.Sprintf("is %q, not an HTTP token (letters, digits and !#$%%&'*+-.^_`|~)", name))
	}
	kind, rule, why := headerKind(m["type"])
	if rule != "" {
		return ruleBroken(rule, at, "annotates "+why)
	}
	lower := jsontext.LowerASCII(name)
	if first, dup := w.seen[lower]; dup {
		return ruleBroken(ruleHeaderDuplicate, at, fmt.Sprintf("repeats the name %q of the one at %s (names are compared ignoring case)",
			name, jsontext.Display(first)))
	}
	w.seen[lower] = at
	w.found = append(w.found, paramHeader{Name: name, Path: path, Kind: kind})
	return nil
}

// headerKind reads the "type" of an annotated property: "string",
// "integer" or "boolean", alone or beside "null" in an array; else the
// rule it breaks and why, for a message.
func headerKind(t any) (kind, rule, why string) {
	names, ok := []string(nil), true
	switch t := t.(type) {
	case nil:
		return "", ruleHeaderNoType, "a property without a type"
	case string:
		names = []string{t}
	case []any:
		for _, v := range t {
			s, isString := v.(string)
			ok = ok && isString
			if isString && s != "null" && !slices.Contains(names, s) {
				names = append(names, s)
			}
		}
	default:
		ok = false
	}
	switch {
	case !ok:
		return "", ruleHeaderNotPrimitive, "a property whose type is not a type name or an array of them"
	case len(names) == 0:
		return "", ruleHeaderNotPrimitive, "a property whose only type is null"
	case len(names) > 1:
		return "", ruleHeaderTypeUnion, "a property of several types: " + strings.Join(names, ", ")
	case names[0] == "number":
		return "", ruleHeaderNumber, "a number property (only integer, string and boolean are mirrored)"
	case names[0] == "string", names[0] == "integer", names[0] == "boolean":
		return names[0], "", ""
	}
	return "", ruleHeaderNotPrimitive, fmt.Sprintf("a property of type %q (only integer, string and boolean are mirrored)", names[0])
}

// isHeaderToken reports whether s is an HTTP token: one or more of
// A-Z a-z 0-9 ! # $ % & ' * + - . ^ _ ` | ~.
func isHeaderToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return s != ""
}

// paramHeaderValues returns the Mcp-Param-* headers of one tools/call with args (the JSON object of arguments):
// name and encoded value per annotation whose value is present and not null, in the order of hs.
// It never fails: arguments that are not a JSON object give no headers, and a value it cannot mirror is
// left out — one of another type than Kind, an integer with a fraction or beyond ±(2^53−1) — as is an
// entry whose Name is not a token (parseParamHeaders returns none).
func paramHeaderValues(hs []paramHeader, args json.RawMessage) [][2]string {
	if len(hs) == 0 || !json.Valid(args) {
		return nil
	}
	root := jsontext.ParseValid(args)
	var out [][2]string
	for _, h := range hs {
		v := valueAtPath(root, h.Path)
		text, ok := headerText(h.Kind, v)
		if !ok || !isHeaderToken(h.Name) {
			continue
		}
		out = append(out, [2]string{paramHeaderPrefix + h.Name, encodeHeaderValue(text)})
	}
	return out
}

// valueAtPath is the value at the chain of member names path in v, or nil
// when a step is missing or not an object.
func valueAtPath(v any, path []string) any {
	for _, name := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[name]
	}
	return v
}

// headerText converts v, a value decoded by jsontext.ParseValid, to the text
// of a header for a property of kind: a string as is, a boolean as
// true/false, an integer as its shortest decimal (42.0 and 4.2e1 are "42",
// -0 is "0"). False for null, for a value of another type, and for an
// integer outside ±(2^53−1) or with a fraction.
func headerText(kind string, v any) (string, bool) {
	switch kind {
	case "string":
		s, ok := v.(string)
		return s, ok
	case "boolean":
		b, ok := v.(bool)
		return strconv.FormatBool(b), ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return "", false
		}
		return safeIntegerText(string(n))
	}
	return "", false
}

// safeIntegerText is the decimal text of the JSON number literal s when it
// denotes an integer within ±(2^53−1), computed from its digits so nothing
// is rounded.
func safeIntegerText(s string) (string, bool) {
	d, ok := jsontext.ParseDecimal(s, false)
	if !ok {
		return "", false
	}
	digits, ok := d.Integer(len(strconv.Itoa(maxSafeHeaderInteger)))
	if !ok {
		return "", false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > maxSafeHeaderInteger || n < -maxSafeHeaderInteger {
		return "", false
	}
	return digits, true
}

// encodeHeaderValue is the spec's Value Encoding of one value: as is when it is a safe plain header value,
// else "=?base64?" + base64(UTF-8) + "?=" (non-ASCII, control characters, leading/trailing whitespace,
// a value that itself matches the sentinel pattern, ...). Safe plain means: only bytes 0x20–0x7E, no space
// first or last, and not both starting "=?base64?" and ending "?=". A tab is a control character here, so
// it is always encoded. Invalid UTF-8 is encoded byte for byte. "" stays "".
func encodeHeaderValue(s string) string {
	if plainHeaderValue(s) {
		return s
	}
	return headerBase64Prefix + base64.StdEncoding.EncodeToString([]byte(s)) + headerBase64Suffix
}

// plainHeaderValue reports whether s can be sent as it is (see encodeHeaderValue).
func plainHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	if s != "" && (s[0] == ' ' || s[len(s)-1] == ' ') {
		return false
	}
	return !strings.HasPrefix(s, headerBase64Prefix) || !strings.HasSuffix(s, headerBase64Suffix)
}
