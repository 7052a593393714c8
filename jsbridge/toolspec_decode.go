package jsbridge

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The fast way to read a tool.create payload: one tape pass over what
// JSON.stringify wrote, each member copied to its field, without
// encoding/json's reflection (a tenth of a tool's creation under
// WebAssembly). It answers only when every member is one decodeStrict
// would take as it is; anything else (an unknown, escaped, repeated or
// differently cased key, a null but for parameters and schema, a value of another kind) goes to
// decodeStrict, which decodes or words the refusal as before.

// specMaxDepth bounds the nesting the tape follows: deeper payloads go to
// decodeStrict.
const specMaxDepth = 1000

// decodeSpecTape fills spec from payload, or reports false.
func decodeSpecTape(payload []byte, spec *toolSpec) bool {
	return readTapeObject(payload, func(r *tapeReader, key string, v int32) bool {
		switch key {
		case "kind":
			return r.str(v, &spec.Kind)
		case "name":
			return r.str(v, &spec.Name)
		case "source":
			return r.str(v, &spec.Source)
		case "options":
			return r.options(v, &spec.Options)
		}
		return false
	})
}

// options fills o from the object at token k.
func (r *tapeReader) options(k int32, o *toolSpecOptions) bool {
	if r.toks[k].Kind != jsontext.TokObject {
		return false
	}
	return r.members(k, func(key string, v int32) bool {
		switch key {
		case "name":
			return r.str(v, &o.Name)
		case "description":
			return r.str(v, &o.Description)
		case "schemaMode":
			return r.str(v, &o.SchemaMode)
		case "docstringStyle":
			return r.str(v, &o.DocstringStyle)
		case "coerce":
			return r.str(v, &o.Coerce)
		case "parameters":
			return r.raw(v, &o.Parameters)
		case "schema":
			return r.raw(v, &o.Schema)
		case "strict":
			return r.boolean(v, &o.Strict)
		case "strictFuncCall":
			return r.boolean(v, &o.StrictFuncCall)
		case "timeoutMs":
			return r.number(v, &o.TimeoutMs)
		case "metadata":
			return r.metadata(v, &o.Metadata)
		case "parameterDescriptions":
			return r.descriptions(v, &o.ParameterDescriptions)
		case "inputExamples":
			return r.raw(v, &o.InputExamples)
		}
		return false
	})
}

// payloadTapes are tapes for reading payloads, reused (what a reader
// keeps, it copies out of the payload).
var payloadTapes = sync.Pool{New: func() any { return new(jsontext.Tape) }}

// readTapeObject parses payload as one JSON object (nothing but space
// after it, nested no deeper than specMaxDepth) on a pooled tape and calls
// member with each key and value token, stopping at the first false; it
// reports false for anything else. member must copy what it keeps: the
// tape goes back to the pool.
func readTapeObject(payload []byte, member func(r *tapeReader, key string, v int32) bool) bool {
	tp := payloadTapes.Get().(*jsontext.Tape)
	defer payloadTapes.Put(tp)
	end, ok := tp.Parse(payload, specMaxDepth)
	if !ok || !jsontext.OnlySpace(payload[end:]) || tp.Tokens[0].Kind != jsontext.TokObject {
		return false
	}
	r := &tapeReader{b: payload, toks: tp.Tokens}
	return r.members(0, func(key string, v int32) bool { return member(r, key, v) })
}

// tapeReader reads the tokens of one payload.
type tapeReader struct {
	b    []byte
	toks []jsontext.Token
}

// members calls each with the key and value token of each member of the
// object at token k, stopping at the first false.
func (r *tapeReader) members(k int32, each func(key string, v int32) bool) bool {
	next := k + 1
	for range r.toks[k].N {
		kt := r.toks[next]
		if !each(string(r.b[kt.Start+1:kt.End-1]), next+1) { // never escaped: Parse declines those
			return false
		}
		next = r.toks[next+1].Next
	}
	return true
}

// str decodes the string at token k into dst.
func (r *tapeReader) str(k int32, dst *string) bool {
	t := r.toks[k]
	if t.Kind != jsontext.TokString {
		return false
	}
	*dst = string(jsontext.AppendUnquoted(nil, r.b[t.Start:t.End]))
	return true
}

// raw copies the text of the value at token k into dst ("null" too, as
// encoding/json does).
func (r *tapeReader) raw(k int32, dst *json.RawMessage) bool {
	t := r.toks[k]
	*dst = append(json.RawMessage(nil), r.b[t.Start:t.End]...)
	return true
}

// boolean reads the true or false at token k into dst.
func (r *tapeReader) boolean(k int32, dst *bool) bool {
	switch r.toks[k].Kind {
	case jsontext.TokTrue:
		*dst = true
	case jsontext.TokFalse:
		*dst = false
	default:
		return false
	}
	return true
}

// number reads the number at token k into dst, as encoding/json does
// (declining one beyond float64).
func (r *tapeReader) number(k int32, dst *float64) bool {
	t := r.toks[k]
	if t.Kind != jsontext.TokNumber {
		return false
	}
	f, err := strconv.ParseFloat(string(r.b[t.Start:t.End]), 64)
	*dst = f
	return err == nil
}

// metadata decodes the object at token k as encoding/json with UseNumber.
func (r *tapeReader) metadata(k int32, dst *map[string]any) bool {
	t := r.toks[k]
	if t.Kind != jsontext.TokObject {
		return false
	}
	m, ok := jsontext.ParseValid(r.b[t.Start:t.End]).(map[string]any)
	*dst = m
	return ok
}

// descriptions reads the object of strings at token k.
func (r *tapeReader) descriptions(k int32, dst *map[string]string) bool {
	if r.toks[k].Kind != jsontext.TokObject {
		return false
	}
	m := make(map[string]string, r.toks[k].N)
	*dst = m
	return r.members(k, func(key string, v int32) bool {
		var s string
		ok := r.str(v, &s)
		m[key] = s
		return ok
	})
}
