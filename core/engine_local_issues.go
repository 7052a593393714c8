//go:build !toolgate_remote_validator

package core

// Reading the validator's errors as data: the keyword from the keyword
// location, the names a required, additionalProperties or dependentRequired
// failure is about from the schema at that location and the instance. The
// validator's message is only ever copied into an issue's message, which is
// for people; the keyword is for code (docs/contract.md, "Errors").

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// schemaAt finds the compiled schema at an absolute location (a schema's
// Location), or nil.
type schemaAt func(location string) *jsonschema.Schema

// schemaIssues lists the metaschema failures of a schema document, with
// regular expressions that RE2 refuses explained. at finds the metaschema's
// compiled subschemas.
func schemaIssues(doc any, ve *jsonschema.ValidationError, at schemaAt) []Issue {
	var issues []Issue
	for _, leaf := range leafErrors(ve) {
		path := cleanPointer(leaf.InstanceLocation)
		keyword := keywordOf(leaf, at)
		if keyword == "format" && formatOf(leaf, at) == "regex" {
			issues = append(issues, regexIssue(doc, path))
			continue
		}
		issues = append(issues, Issue{Path: path, Keyword: keyword, Message: describeField(path, "schema") + ": " + leaf.Message})
	}
	return sortIssues(issues)
}

// formatOf is the format a "format" failure asserts, read from the schema
// that holds the keyword.
func formatOf(leaf *jsonschema.ValidationError, at schemaAt) string {
	if s := parentSchema(leaf, at, "format"); s != nil {
		return s.Format
	}
	return ""
}

// argumentIssues turns a validation error tree into one issue per failing
// leaf, paths pointing into the arguments v. at finds the compiled
// subschemas; a required, additionalProperties or dependentRequired failure
// becomes one issue per name, the names computed from that schema and the
// instance. Should the schema not be found (no case known: see
// dynamicAnchorRoots), the failure stays one issue at the object, its
// keyword still right.
func argumentIssues(v any, ve *jsonschema.ValidationError, at schemaAt, doc any) []Issue {
	var issues []Issue
	for _, leaf := range leafErrors(ve) {
		path := cleanPointer(leaf.InstanceLocation)
		keyword := keywordOf(leaf, at)
		var names []string
		var wording string
		var wordingOf func(name string) string // a wording per name
		switch keyword {
		case "type":
			msg := leaf.Message
			switch x := jsontext.At(v, path).(type) {
			case string:
				msg += sentString([]byte(x))
			case json.Number:
				msg += sentNumber([]byte(x))
			}
			if s := parentSchema(leaf, at, "type"); s != nil {
				msg += typeTail(doc, rawAt(doc, s.Location))
			}
			issues = append(issues, Issue{Path: path, Keyword: keyword, Message: describeField(path, "arguments") + ": " + msg})
			continue
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			if s := parentSchema(leaf, at, keyword); s != nil {
				if msg, ok := boundIssueMessage(keyword, leaf.Message, rawAt(doc, s.Location)); ok {
					issues = append(issues, Issue{Path: path, Keyword: keyword, Message: describeField(path, "arguments") + ": " + msg})
					continue
				}
			}
		case "required":
			names = missingRequired(leaf, at, jsontext.At(v, path))
			if s := parentSchema(leaf, at, "required"); s != nil {
				props, _ := jsontext.At(rawAt(doc, s.Location), "/properties").(map[string]any)
				wordingOf = func(name string) string { return requiredText(doc, props[name]) }
			} else {
				wording = " is required but missing"
			}
		case "additionalProperties":
			obj, _ := jsontext.At(v, path).(map[string]any)
			names = extraProperties(leaf, at, obj)
			if s := parentSchema(leaf, at, "additionalProperties"); s != nil {
				declared := slices.Sorted(maps.Keys(s.Properties))
				wordingOf = func(name string) string {
					return unknownKeyText(name, declared, func(d string) bool { _, ok := obj[d]; return ok })
				}
			}
		case "dependentRequired", "dependencies":
			if name, ok := dependentName(leaf, at, keyword); ok {
				names, wording = []string{name}, " is required: "+leaf.Message
			}
		case "minContains", "maxContains":
			if is, ok := containsIssue(leaf, at, keyword, path, jsontext.At(v, path)); ok {
				issues = append(issues, is)
				continue
			}
		}
		for _, name := range names {
			p := jsontext.Join(path, name)
			w := wording
			if wordingOf != nil {
				w = wordingOf(name)
			}
			issues = append(issues, Issue{Path: p, Keyword: keyword, Message: describeField(p, "arguments") + w})
		}
		if len(names) == 0 {
			issues = append(issues, Issue{Path: path, Keyword: keyword, Message: describeField(path, "arguments") + ": " + leaf.Message})
		}
	}
	return sortIssues(issues)
}

// boundIssueMessage rewrites the validator's message of a failed number
// keyword (kw, whose schema is raw) with the bound as boundLiteral spells
// it, as the fast path words it; ok is false when raw has no number there.
func boundIssueMessage(kw, validatorMsg string, raw any) (string, bool) {
	m, _ := raw.(map[string]any)
	lit, ok := m[kw].(json.Number)
	if !ok {
		return "", false
	}
	tmpl, known := boundMessages[kw]
	if !known {
		return "", false
	}
	own := strings.Replace(tmpl, "%v", boundLiteral(string(lit)), 1)
	if kw == "multipleOf" {
		value, _, found := strings.Cut(validatorMsg, " not multipleOf ")
		return value + own, found
	}
	_, found, ok := strings.Cut(validatorMsg, " but found ")
	return own + found, ok
}

// rawAt is the decoded subschema of doc at a compiled schema's location
// (the parameters document's URL and a pointer fragment), or nil.
func rawAt(doc any, location string) any {
	base, frag, ok := strings.Cut(location, "#")
	if !ok || base != schemaBaseURL {
		return nil
	}
	ptr, err := url.PathUnescape(frag)
	if err != nil {
		return nil
	}
	return jsontext.At(doc, ptr)
}

// parentSchema is the compiled schema holding the keyword path that ends the
// leaf's absolute keyword location (for example "required", or
// "dependentRequired/a/0"), or nil.
func parentSchema(leaf *jsonschema.ValidationError, at schemaAt, keywordPath string) *jsonschema.Schema {
	loc, ok := strings.CutSuffix(leaf.AbsoluteKeywordLocation, "/"+keywordPath)
	if !ok {
		return nil
	}
	return at(loc)
}

// missingRequired lists, in the schema's order, the names of the schema's
// "required" that the object instance lacks.
func missingRequired(leaf *jsonschema.ValidationError, at schemaAt, instance any) []string {
	s := parentSchema(leaf, at, "required")
	obj, ok := instance.(map[string]any)
	if s == nil || !ok {
		return nil
	}
	var missing []string
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			missing = append(missing, name)
		}
	}
	return missing
}

// extraProperties lists, sorted, the names of the object instance that a
// schema with "additionalProperties": false neither names in "properties"
// nor matches with "patternProperties" (what the validator refuses).
func extraProperties(leaf *jsonschema.ValidationError, at schemaAt, instance any) []string {
	s := parentSchema(leaf, at, "additionalProperties")
	obj, ok := instance.(map[string]any)
	if s == nil || !ok || s.AdditionalProperties != false {
		return nil
	}
	var extra []string
	for name := range obj {
		if _, named := s.Properties[name]; named || matchesAny(s, name) {
			continue
		}
		extra = append(extra, name)
	}
	slices.Sort(extra)
	return extra
}

// matchesAny reports whether a patternProperties pattern of s matches name.
func matchesAny(s *jsonschema.Schema, name string) bool {
	for re := range s.PatternProperties {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// dependentName is the name a dependentRequired (or draft 4-7 array
// dependencies) failure says is missing: the keyword location ends
// "<keyword>/<property>/<index>", read against the schema's list.
func dependentName(leaf *jsonschema.ValidationError, at schemaAt, keyword string) (string, bool) {
	rest, idx, ok := cutLastToken(leaf.AbsoluteKeywordLocation)
	if !ok {
		return "", false
	}
	rest, prop, ok := cutLastToken(rest)
	i, isIndex := jsontext.Index(idx)
	if !ok || !isIndex {
		return "", false
	}
	loc, ok := strings.CutSuffix(rest, "/"+keyword)
	s := at(loc)
	if !ok || s == nil {
		return "", false
	}
	var list []string
	if keyword == "dependentRequired" {
		list = s.DependentRequired[prop]
	} else {
		list, _ = s.Dependencies[prop].([]string)
	}
	if i >= len(list) {
		return "", false
	}
	return list[i], true
}

// cutLastToken splits a location before its last pointer token and returns
// that token unescaped (the validator escapes tokens for JSON pointers, then
// for URL paths).
func cutLastToken(loc string) (string, string, bool) {
	i := strings.LastIndexByte(loc, '/')
	if i < 0 {
		return "", "", false
	}
	tok, err := url.PathUnescape(loc[i+1:])
	if err != nil {
		return "", "", false
	}
	return loc[:i], jsontext.Unescape(tok), true
}

// leafErrors lists the errors of a tree that have no causes, depth first.
func leafErrors(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 || containsFailure(e) {
			out = append(out, e) // a contains failure's causes are why items do not match, not failures
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// keywordOf finds the keyword a leaf error is about by reading its keyword
// location as a schema path: which segments are keywords and which are
// property names or indexes. A location that ends on a subschema is a false
// schema's failure when the compiled schema there (at the absolute keyword
// location) is false: it gives "false", or the keyword that holds it
// (unevaluatedProperties, items, …); any other failure located on a
// subschema (draft 4's regexProperties) gives "schema", or "$ref" after a
// reference.
func keywordOf(leaf *jsonschema.ValidationError, at schemaAt) string {
	last, endsOnName := lastKeyword(leaf.KeywordLocation)
	onSchema := endsOnName || last == "" || last == "$ref" || last == "$dynamicRef" || last == "$recursiveRef"
	if !onSchema {
		return last
	}
	if isFalseSchema(at(leaf.AbsoluteKeywordLocation)) {
		return "false"
	}
	if endsOnName || last == "" {
		return "schema"
	}
	return last
}

// isFalseSchema reports whether s is the schema false.
func isFalseSchema(s *jsonschema.Schema) bool {
	return s != nil && s.Always != nil && !*s.Always
}

// lastKeyword walks a keyword location (a schema path through references)
// and returns its last keyword, and whether the path goes on past it to a
// property name or index naming a subschema ("properties/a", "allOf/0").
func lastKeyword(loc string) (last string, endsOnName bool) {
	var segs []string
	if loc != "" {
		segs = strings.Split(strings.TrimPrefix(loc, "/"), "/")
	}
	for i := 0; i < len(segs); i++ {
		kw := segs[i]
		last = kw
		endsOnName = false
		switch kw {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
			"allOf", "anyOf", "oneOf", "prefixItems":
			if i+1 < len(segs) {
				i++
				endsOnName = true
			}
		case "items", "additionalItems":
			if i+1 < len(segs) && isIndexToken(segs[i+1]) {
				i++
				endsOnName = true
			}
		case "dependencies":
			i++
			endsOnName = true
			if i+1 == len(segs)-1 && isIndexToken(segs[i+1]) {
				i++
				endsOnName = false
			}
		case "dependentRequired":
			i += 2
		}
	}
	return last, endsOnName
}

// localSchema is a schema compiled with the validator, with the index of its
// compiled subschemas that reading its errors needs.
type localSchema struct {
	root    *jsonschema.Schema
	doc     any                  // the decoded document, for what its issues say is accepted
	anchors []*jsonschema.Schema // see dynamicAnchorRoots
	once    sync.Once
	index   map[string]*jsonschema.Schema
}

// at finds the compiled subschema at a location, indexed once, on the first
// error that needs it.
func (ls *localSchema) at(loc string) *jsonschema.Schema {
	ls.once.Do(func() {
		ls.index = indexSchemas(append([]*jsonschema.Schema{ls.root}, ls.anchors...))
	})
	return ls.index[loc]
}

// indexSchemas indexes by location every schema reachable from the roots
// through the validator's subschema fields.
func indexSchemas(stack []*jsonschema.Schema) map[string]*jsonschema.Schema {
	index := map[string]*jsonschema.Schema{}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == nil {
			continue
		}
		if _, seen := index[s.Location]; seen {
			continue
		}
		index[s.Location] = s
		stack = appendSubschemas(stack, s)
	}
	return index
}

// appendSubschemas appends the subschemas of s that validation may enter
// (nil ones too, which the caller skips).
func appendSubschemas(out []*jsonschema.Schema, s *jsonschema.Schema) []*jsonschema.Schema {
	out = append(out, s.Ref, s.RecursiveRef, s.DynamicRef, s.Not, s.If, s.Then, s.Else,
		s.PropertyNames, s.UnevaluatedProperties, s.Items2020, s.Contains, s.UnevaluatedItems, s.ContentSchema)
	out = append(append(append(append(out, s.AllOf...), s.AnyOf...), s.OneOf...), s.PrefixItems...)
	for _, c := range s.Properties {
		out = append(out, c)
	}
	for _, c := range s.PatternProperties {
		out = append(out, c)
	}
	for _, c := range s.DependentSchemas {
		out = append(out, c)
	}
	for _, c := range s.Dependencies {
		if c, ok := c.(*jsonschema.Schema); ok {
			out = append(out, c)
		}
	}
	for _, v := range []any{s.AdditionalProperties, s.AdditionalItems, s.Items} {
		switch c := v.(type) {
		case *jsonschema.Schema:
			out = append(out, c)
		case []*jsonschema.Schema:
			out = append(out, c...)
		}
	}
	return out
}

// metaschemaIndex finds the compiled subschemas of the metaschemas a schema
// document was checked against: c compiles any built-in metaschema document
// (a draft's, or a 2019-09/2020-12 vocabulary's) from its URL, and each one
// asked for is indexed as localSchema indexes a user's schema.
func metaschemaIndex(c *jsonschema.Compiler) schemaAt {
	docs := map[string]map[string]*jsonschema.Schema{}
	return func(loc string) *jsonschema.Schema {
		doc, _, _ := strings.Cut(loc, "#")
		index, ok := docs[doc]
		if !ok {
			if root, err := c.Compile(doc); err == nil {
				index = indexSchemas([]*jsonschema.Schema{root})
			}
			docs[doc] = index
		}
		return index[loc]
	}
}

// dynamicAnchorRoots compiles the subschemas of doc that declare a
// "$dynamicAnchor": a $dynamicRef may reach one through the dynamic scope
// alone, outside the subschema fields indexSchemas follows. (compileValidator
// calls it when the schema's text holds "dynamicAnchor"; one spelling the
// keyword with JSON escapes would go unindexed.)
func dynamicAnchorRoots(c *jsonschema.Compiler, doc any) []*jsonschema.Schema {
	declaring := map[string][]string{}
	collectAnchors(doc, "", declaring)
	var roots []*jsonschema.Schema
	for anchor, locs := range declaring {
		if anchor == "" {
			continue
		}
		for _, loc := range locs {
			if s, err := c.Compile(schemaBaseURL + "#" + (&url.URL{Fragment: loc}).EscapedFragment()); err == nil {
				roots = append(roots, s)
			}
		}
	}
	return roots
}
