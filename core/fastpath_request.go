package core

// The fast path of Manager.Match and Manager.Validate for callers that
// want the normalised arguments as JSON text (the bridge, which hands them
// to JavaScript): the request read on a tape, the tool found, its
// arguments validated on their bytes and written out, with no value tree.
// Whenever anything is unusual (an error ParseRequest would report, an
// escaped or repeated key, a failing key check, a schema the fast path
// declined) it answers "not handled", and the caller takes the full path,
// which says exactly what it always said.

import (
	"sync"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// FastMatch is what MatchFast found: the tool, the request's call id, and
// the normalised arguments as JSON text for JavaScript (integers beyond
// ±(2^53−1) written as strings, their JSON pointers in BigInts), with the
// lax conversions made. Arguments and BigInts are valid until Release.
type FastMatch struct {
	Tool        *Tool
	ID          string
	Arguments   []byte
	BigInts     []string
	Conversions []Conversion

	run *fastRun
}

// Release hands the match's buffers back for reuse.
func (f FastMatch) Release() {
	if f.run != nil {
		fastRuns.Put(f.run)
	}
}

var fastRuns = sync.Pool{New: func() any { return new(fastRun) }}

// reset readies a pooled run for a call.
func (r *fastRun) reset() {
	r.alt, r.issues, r.convs, r.path = r.alt[:0], r.issues[:0], nil, r.path[:0]
	r.keys, r.bigints, r.bail = r.keys[:0], nil, false
}

// MatchFast is Match (Validate when signature is true) on a request's JSON
// text for a caller that needs the arguments only as JSON: ParseRequest and
// Match, or Validate, would accept the request and give these arguments,
// conversions and call id, or return this error. handled is false when the
// fast path cannot tell, or when eligible refuses the tool: then call
// ParseRequest and Match (or Validate). With an error, the FastMatch names
// the tool and call id that refused.
func (m *Manager) MatchFast(data []byte, signature bool, eligible func(*Tool) bool) (FastMatch, bool, error) {
	r := fastRuns.Get().(*fastRun)
	r.reset()
	name, id, ok := r.request(data)
	var t *Tool
	if ok {
		m.mu.RLock()
		t = m.tools[string(name)]
		if t != nil && m.restoredLocked(t) {
			t = nil // the strict restore runs first: Match's path
		}
		m.mu.RUnlock()
	}
	if t == nil || !eligible(t) {
		fastRuns.Put(r)
		return FastMatch{}, false, nil
	}
	handled, err := t.fastValidate(r, signature)
	if !handled || err != nil {
		fastRuns.Put(r)
		if handled {
			return FastMatch{Tool: t, ID: id}, true, WithCall(err, t.Function(), id)
		}
		return FastMatch{}, false, nil
	}
	return FastMatch{Tool: t, ID: id, Arguments: r.out, BigInts: r.bigints, Conversions: r.convs, run: r}, true, nil
}

// envelope holds the value tokens of the members a request envelope may
// have, -1 for those it lacks.
type envelope struct {
	function, arguments, actionRequest, functionCall, typ, name, args, input, id, callID, provider int32
}

// envelopeOf reads the members of object k in one pass.
func (r *fastRun) envelopeOf(k int32) envelope {
	e := envelope{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
	t := r.tok(k)
	for key, m := k+1, int32(0); m < t.N; m++ {
		v := key + 1
		switch string(r.keyText(key)) {
		case "function":
			e.function = v
		case "arguments":
			e.arguments = v
		case "action_request":
			e.actionRequest = v
		case "functionCall":
			e.functionCall = v
		case "type":
			e.typ = v
		case "name":
			e.name = v
		case "args":
			e.args = v
		case "input":
			e.input = v
		case "id":
			e.id = v
		case "call_id":
			e.callID = v
		case "provider":
			e.provider = v
		}
		key = r.tok(v).Next
	}
	return e
}

// request reads a request envelope as parseRequest does, for the shapes and
// cases it accepts, leaving r on the arguments object; false for anything
// else. name is valid until the run is reused.
func (r *fastRun) request(data []byte) (name []byte, id string, ok bool) {
	end, ok := r.tape.Parse(data, MaxArgumentDepth+4)
	if !ok || !jsontext.OnlySpace(data[end:]) || r.tape.Tokens[0].Kind != jsontext.TokObject {
		return nil, "", false
	}
	r.src = data
	e := r.envelopeOf(0)
	nameTok, argsTok := e.name, e.arguments
	switch typ := r.stringValue(e.typ); {
	case e.actionRequest >= 0 && e.function < 0, e.functionCall >= 0:
		return nil, "", false // nested shapes, and Gemini's optional arguments: the full path
	case typ == "function_call":
		if id = r.stringValue(e.callID); id == "" {
			id = r.stringValue(e.id)
		}
	case typ == "tool_use":
		argsTok, id = e.input, r.stringValue(e.id)
	case e.function >= 0:
		if r.tok(e.function).Kind != jsontext.TokObject {
			if !r.lionagiMembers(e) {
				return nil, "", false
			}
			nameTok, id = e.function, r.stringValue(e.id)
			break
		}
		if e.typ >= 0 && typ != "function" {
			return nil, "", false
		}
		inner := r.envelopeOf(e.function)
		nameTok, argsTok, id = inner.name, inner.arguments, r.stringValue(e.id)
	case e.name >= 0 && e.args >= 0:
		argsTok, id = e.args, r.stringValue(e.id)
	default:
		return nil, "", false
	}
	if nameTok < 0 || argsTok < 0 || r.tok(nameTok).Kind != jsontext.TokString {
		return nil, "", false
	}
	name = r.strValue(nameTok)
	if len(name) == 0 || !r.arguments(argsTok) {
		return nil, "", false
	}
	return name, id, true
}

// lionagiMembers reports whether the optional "id" and "provider" members
// of the LionAGI shape are absent, null or strings parseRequest accepts;
// anything else is the full path's to refuse.
func (r *fastRun) lionagiMembers(e envelope) bool {
	if e.id >= 0 && r.tok(e.id).Kind != jsontext.TokString && r.tok(e.id).Kind != jsontext.TokNull {
		return false
	}
	return e.provider < 0 || r.tok(e.provider).Kind == jsontext.TokNull || knownProvider(r.stringValue(e.provider))
}

// stringValue is jsontext.StringMember for a member's value token: its
// text when it is a string, else "" (also for -1, no member).
func (r *fastRun) stringValue(k int32) string {
	if k < 0 || r.tok(k).Kind != jsontext.TokString {
		return ""
	}
	return string(r.strValue(k))
}

// arguments leaves r on the arguments at token k: an object of the
// request, or the object a JSON string holds, within the limits
// decodeArguments checks.
func (r *fastRun) arguments(k int32) bool {
	t := r.tok(k)
	switch t.Kind {
	case jsontext.TokObject:
		r.root = k
		return t.End-t.Start <= MaxArgumentBytes && t.Height <= MaxArgumentDepth
	case jsontext.TokString:
		if t.Flags&jsontext.FlagEscaped == 0 {
			return false // no quotes inside: not an object
		}
		r.text = jsontext.AppendUnquoted(r.text[:0], r.lit(k))
		if len(r.text) > MaxArgumentBytes {
			return false
		}
		end, ok := r.args.Parse(r.text, MaxArgumentDepth)
		if !ok || !jsontext.OnlySpace(r.text[end:]) || r.args.Tokens[0].Kind != jsontext.TokObject {
			return false
		}
		r.tape, r.args = r.args, r.tape
		r.src, r.root = r.text, 0
		return true
	}
	return false
}

// fastValidate is ValidateArguments (and, with signature, the signature
// check of Manager.Validate) on the tape, ending with the arguments
// written in r.out. It is false when the fast path cannot answer.
func (t *Tool) fastValidate(r *fastRun, signature bool) (bool, error) {
	d := t.fields()
	if d.typed {
		cs := t.currentSchema(d)
		if cs == nil || cs.parts().fast == nil {
			return false, nil
		}
		coerce := t.Coerce
		switch coerce {
		case "":
			coerce = CoerceLax
		case CoerceLax, CoerceNone:
		default:
			return false, nil
		}
		if handled, err := cs.fastNormalize(r, d.function, coerce); !handled || err != nil {
			return handled, err
		}
	} else {
		root := r.tok(r.root)
		for key, m := r.root+1, int32(0); m < root.N; m++ {
			r.keys = append(r.keys, key)
			key = r.tok(key + 1).Next
		}
	}
	if !t.fastKeysPass(r, d, signature) {
		return false, nil
	}
	r.emit()
	return true, nil
}

// fastKeysPass reports whether the surviving keys pass the strict or
// non-strict check (and the signature check); when they do not, the full
// path words the error.
func (t *Tool) fastKeysPass(r *fastRun, d *derivedFields, signature bool) bool {
	want := d.minimum
	if t.StrictFuncCall {
		if d.requiredErr != nil || len(r.keys) != len(d.required) {
			return false
		}
		want = d.required
	}
	for _, name := range want {
		if !r.kept(name) {
			return false
		}
	}
	if !signature {
		return true
	}
	sig, err := t.signature()
	if err != nil {
		return true
	}
	for _, k := range r.keys {
		if !sig.takesBytes(r.keyText(k)) {
			return false
		}
	}
	return true
}

// kept reports whether name is among the surviving keys.
func (r *fastRun) kept(name string) bool {
	for _, k := range r.keys {
		if t := r.tok(k); int(t.End-t.Start) == len(name)+2 && string(r.src[t.Start+1:t.End-1]) == name {
			return true
		}
	}
	return false
}

// takesBytes is takes for a key's bytes.
func (s Signature) takesBytes(key []byte) bool {
	for _, p := range s.Params {
		if p.Kind == ParamKeywords {
			return true
		}
	}
	return s.takes(string(key))
}
