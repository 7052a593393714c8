package core

import (
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The fields a tool derives from its schema bytes (its function name,
// "required", the keys the non-strict check needs), cached, and read in
// one pass where the text allows: every tool.create reads them, and each
// Lookup validated and split the whole schema again.

// derivedFields caches what the hot path reads from the schema bytes. It is
// keyed on the identity (address and length) of Schema and RequestOptions,
// so assigning either field invalidates it; editing their bytes in place is
// not supported.
type derivedFields struct {
	schema, request rawIdentity
	function        string
	required        []string
	requiredErr     error
	minimum         []string
	given           bool // RequestOptions counts as given
	typed           bool // a schema validates the arguments: RequestOptions, or else InputSchema
}

type rawIdentity struct {
	p *byte
	n int
}

func identityOf(r json.RawMessage) rawIdentity {
	if len(r) == 0 {
		return rawIdentity{}
	}
	return rawIdentity{&r[0], len(r)}
}

// fields returns the cached derived fields, computing them on a miss.
func (t *Tool) fields() *derivedFields {
	s, r := identityOf(t.Schema), identityOf(t.RequestOptions)
	if d := t.derived.Load(); d != nil && d.schema == s && d.request == r {
		return d
	}
	d := &derivedFields{schema: s, request: r}
	if !readSchemaFields(t.Schema, d) {
		d.function = t.functionUncached()
		d.required, d.requiredErr = t.requiredFieldsUncached(d.function)
	}
	if minimum, ok := t.compiledMinimum(); ok {
		d.minimum, d.given = minimum, true
	} else {
		d.minimum = t.minimumAcceptableFieldsUncached()
		d.given = !schemaNotGiven(t.RequestOptions)
	}
	d.typed = d.given || t.input != nil
	t.derived.Store(d)
	return d
}

// fieldsMaxDepth bounds the nesting readSchemaFields follows: a deeper
// schema is read the slow way.
const fieldsMaxDepth = MaxSchemaDepth + 2

// readSchemaFields fills d.function, d.required and d.requiredErr from a
// provider schema in one pass, as functionUncached and
// requiredFieldsUncached read them with Lookup; false (d untouched) when
// the tape declines the text (not JSON, an escaped or repeated key, a lone
// surrogate, too deep), and those decide. A tape that parsed the whole text
// proves what each Lookup checks (valid JSON) and makes its answer the
// member with that key (keys are unescaped and unique).
func readSchemaFields(schema []byte, d *derivedFields) bool {
	if len(schema) == 0 {
		return false
	}
	tp := schemaTapes.Get().(*jsontext.Tape)
	defer schemaTapes.Put(tp)
	end, ok := tp.Parse(schema, fieldsMaxDepth)
	if !ok || !jsontext.OnlySpace(schema[end:]) {
		return false
	}
	r := tapeFields{b: schema, toks: tp.Tokens}
	fn := r.member(0, "function")
	if name := r.member(fn, "name"); name >= 0 && r.toks[name].Kind == jsontext.TokString {
		d.function = r.str(name)
	}
	params := r.member(fn, "parameters")
	if params < 0 || r.toks[params].Kind == jsontext.TokNull {
		d.requiredErr = noParametersError(d.function)
		return true
	}
	req := r.member(params, "required")
	switch {
	case req < 0:
		d.requiredErr = noRequiredError(d.function)
	case r.toks[req].Kind == jsontext.TokNull:
		d.required = uniqueStrings(nil) // json.Unmarshal of null: no names
	default:
		list, ok := r.strings(req)
		if !ok {
			d.requiredErr = requiredNotStringsError(d.function)
			return true
		}
		d.required = uniqueStrings(list)
	}
	return true
}

// tapeFields reads members of a parsed text.
type tapeFields struct {
	b    []byte
	toks []jsontext.Token
}

// member is the value token of key in the object at token k, or -1 when
// k is -1, not an object, or has no such key.
func (r tapeFields) member(k int32, key string) int32 {
	if k < 0 || r.toks[k].Kind != jsontext.TokObject {
		return -1
	}
	next := k + 1
	for range r.toks[k].N {
		kt := r.toks[next]
		if string(r.b[kt.Start+1:kt.End-1]) == key { // never escaped: Parse declines those
			return next + 1
		}
		next = r.toks[next+1].Next
	}
	return -1
}

// str is the decoded text of the string token k.
func (r tapeFields) str(k int32) string {
	t := r.toks[k]
	if t.Flags&jsontext.FlagEscaped == 0 {
		return string(r.b[t.Start+1 : t.End-1])
	}
	return string(jsontext.AppendUnquoted(nil, r.b[t.Start:t.End]))
}

// strings reads the array at token k as json.Unmarshal into []string
// does; false when k is not an array of strings.
func (r tapeFields) strings(k int32) ([]string, bool) {
	if r.toks[k].Kind != jsontext.TokArray {
		return nil, false
	}
	out := make([]string, 0, r.toks[k].N)
	for i, n := k+1, int32(0); n < r.toks[k].N; n++ {
		if r.toks[i].Kind != jsontext.TokString {
			return nil, false
		}
		out = append(out, r.str(i))
		i = r.toks[i].Next
	}
	return out, true
}

// compiledMinimum is minimumAcceptableFieldsUncached of a typed tool whose
// RequestOptions are still the bytes NewTool compiled, read from the
// compiled document rather than the text: its "required" when that is an
// array of strings, as json.Unmarshal into []string would take it, else
// none. false when there is no such compile.
func (t *Tool) compiledMinimum() ([]string, bool) {
	if t.compiled == nil || identityOf(t.compiledFrom) != identityOf(t.RequestOptions) {
		return nil, false
	}
	m, ok := t.compiled.doc.(map[string]any)
	if !ok || len(m) == 0 {
		return nil, false
	}
	out := []string{}
	list, _ := m["required"].([]any)
	names := make([]string, 0, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return out, true
		}
		names = append(names, s)
	}
	return append(out, uniqueStrings(names)...), true
}
