package core

// Normalisation: validating arguments against a compiled schema and
// deciding which top-level keys survive, as Pydantic's
// model_dump(exclude_unset=True) keeps them.

import (
	"regexp"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// Normalize validates args against the schema and returns them normalised
// like Pydantic's model_dump(exclude_unset=True).
//
// With CoerceLax (also what "" means) it first makes Pydantic v2's lax scalar
// conversions where the schema asks for another type. The schema guides them
// through properties, additionalProperties, items, prefixItems, local $ref and
// allOf; a type array, anyOf or oneOf only when unambiguous (a string is left
// alone when any branch accepts strings, or when it could become either a
// number or a boolean; an object's members are coerced through the one branch
// that accepts objects, if only one does). The conversions: string → integer
// ("5", "5.0", "1_000"), number with no fractional part → integer (5.0 → 5),
// string → number ("2.5"), integer → number (5 → 5.0), string → boolean
// ("true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n",
// any case) and 0 / 1 → boolean. A number never becomes a string. Every
// conversion is returned, in the order of the normalised JSON text. Numbers
// keep their exact digits: 9007199254740993 → 9007199254740993.0, never
// rounded to float64 as Pydantic would.
//
// It then validates with JSON Schema. On failure the error is invalid-arguments
// and its Issues list every failing leaf: a JSON pointer into the arguments,
// the keyword ("type", "required", "minimum", "additionalProperties", …; "false"
// for a false schema) and a message naming the field. A "required" or
// "additionalProperties" failure gives one issue per key, pointing at it. A
// number whose exponent is beyond MaxNumberExponent is an issue too (keyword
// "maxExponent"), found before the validator sees it.
//
// Last, top-level keys the schema does not name (in properties, required,
// the dependent keywords or a matching patternProperties) are dropped unless
// the schema mentions additionalProperties (see MentionsAdditionalProperties)
// or constrains keys it does not name (propertyNames, min/maxProperties); with
// "additionalProperties": false they were already an issue. Schema defaults
// are not added. Key order is kept. args is never modified; nested values the
// result shares with it must be treated as read-only.
//
// A nil args is invalid-request; an unknown mode is unsupported-type. A
// validator fault is recovered and reported as internal.
func (s *CompiledSchema) Normalize(tool string, args *Arguments, coerce CoerceMode) (*Arguments, []Conversion, error) {
	if s == nil || s.full == nil {
		return nil, nil, Errorf(CodeInvalidSchema, tool, "no compiled parameters schema to validate against")
	}
	if args == nil {
		return nil, nil, Errorf(CodeInvalidRequest, tool, "no arguments to validate")
	}
	switch coerce {
	case CoerceLax, "":
		coerce = CoerceLax
	case CoerceNone:
	default:
		return nil, nil, Errorf(CodeUnsupportedType, tool, "unknown coerce mode %q: want %q or %q", coerce, CoerceLax, CoerceNone)
	}
	keys := args.OrderedKeys()
	values := make(map[string]any, len(keys))
	for _, k := range keys {
		values[k] = args.Values[k]
	}
	var convs []Conversion
	p := s.parts()
	var plan *coercePlan
	if coerce == CoerceLax {
		plan = s.laxPlan()
	}
	if plan != nil {
		st := &coerceState{}
		for _, k := range keys {
			c := plan.member(k)
			if c == nil {
				continue
			}
			st.path = append(st.path[:0], k)
			if nv, changed := c.apply(values[k], st); changed {
				values[k] = nv
			}
		}
		convs = st.convs
	}
	if err := s.validateSafely(tool, values); err != nil {
		return nil, nil, err
	}
	out := &Arguments{Keys: make([]string, 0, len(keys)), Values: values}
	for _, k := range keys {
		if p.keepKey(k) {
			out.Keys = append(out.Keys, k)
		} else {
			delete(values, k)
		}
	}
	return out, convs, nil
}

// keepKey reports whether a top-level key survives normalisation.
func (p *schemaParts) keepKey(k string) bool {
	if p.keepAllKeys {
		return true
	}
	if _, ok := p.knownKeys[k]; ok {
		return true
	}
	for _, re := range p.patterns {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}

// rootKeys finds what the schema says about top-level keys: whether it
// mentions additionalProperties (or unevaluatedProperties, propertyNames,
// minProperties, maxProperties) anywhere that applies to the root object,
// and the names (properties, required, dependent keys) and patterns it
// mentions there. It looks through local $refs, allOf, anyOf, oneOf,
// if/then/else and dependentSchemas; a $ref it cannot follow keeps all keys.
// It is called on a builder of its own (the coercion plan, built only for
// lax coercion, has its own), and its walk visits each location once, so
// its budget of 2×maxPlanWork steps is never reached by a document within
// MaxSchemaValues.
func (b *planBuilder) rootKeys() (keepAll bool, known map[string]struct{}, patterns []*regexp.Regexp) {
	known = map[string]struct{}{}
	seen := map[string]bool{}
	var walk func(loc string, hops int)
	walk = func(loc string, hops int) {
		b.work++
		if seen[loc] || hops > 32 || b.work > 2*maxPlanWork {
			if b.work > 2*maxPlanWork {
				keepAll = true
			}
			return
		}
		seen[loc] = true
		n, ok := jsontext.At(b.doc, loc).(map[string]any)
		if !ok {
			return
		}
		if _, ok := n["additionalProperties"]; ok {
			keepAll = true
		}
		if _, ok := n["unevaluatedProperties"]; ok {
			keepAll = true
		}
		if props, ok := n["properties"].(map[string]any); ok {
			for k := range props {
				known[k] = struct{}{}
			}
		}
		if namesKeys(n, known) {
			keepAll = true
		}
		if pp, ok := n["patternProperties"].(map[string]any); ok {
			for _, src := range sortedSchemaKeys(pp) {
				if re, err := regexp.Compile(src); err == nil {
					patterns = append(patterns, re)
				} else {
					keepAll = true
				}
			}
		}
		if ref, ok := n["$ref"].(string); ok {
			if target, ok := b.localRef(ref); ok {
				walk(target, hops+1)
			} else {
				keepAll = true
			}
		}
		if _, ok := n["$dynamicRef"]; ok {
			keepAll = true
		}
		for _, kw := range [...]string{"allOf", "anyOf", "oneOf"} {
			if br, ok := n[kw].([]any); ok {
				for i := range br {
					walk(loc+"/"+kw+"/"+strconv.Itoa(i), hops+1)
				}
			}
		}
		for _, kw := range [...]string{"if", "then", "else"} {
			if _, ok := n[kw]; ok {
				walk(loc+"/"+kw, hops+1)
			}
		}
		if ds, ok := n["dependentSchemas"].(map[string]any); ok {
			for _, k := range sortedSchemaKeys(ds) {
				walk(jsontext.Join(loc, "dependentSchemas", k), hops+1)
			}
		}
	}
	walk("", 0)
	return keepAll, known, patterns
}

// namesKeys adds to known the top-level keys a subschema names outside
// "properties": in "required", and in "dependentRequired", "dependentSchemas"
// and draft-07 "dependencies" (each key and each name it requires). It
// reports whether the subschema constrains keys it does not name
// ("propertyNames", "minProperties", "maxProperties"), so that dropping a key
// after validation could make valid arguments invalid: then every key stays.
func namesKeys(n map[string]any, known map[string]struct{}) (keepAll bool) {
	addNames := func(v any) {
		list, _ := v.([]any)
		for _, e := range list {
			if s, ok := e.(string); ok {
				known[s] = struct{}{}
			}
		}
	}
	addNames(n["required"])
	for _, kw := range [...]string{"dependentRequired", "dependentSchemas", "dependencies"} {
		if m, ok := n[kw].(map[string]any); ok {
			for k, v := range m {
				known[k] = struct{}{}
				addNames(v)
			}
		}
	}
	for _, kw := range [...]string{"propertyNames", "minProperties", "maxProperties"} {
		if _, ok := n[kw]; ok {
			return true
		}
	}
	return false
}
