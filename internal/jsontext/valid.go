package jsontext

import (
	"encoding/json"
	"sync"
)

// tapes are Tapes reused by Valid.
var tapes = sync.Pool{New: func() any { return new(Tape) }}

// validMaxDepth is the nesting Valid's tape follows; deeper text goes to
// json.Valid.
const validMaxDepth = 1000

// Valid reports whether data is one JSON value, as json.Valid does: a tape
// pass (one loop, no scanner state machine) answers for the text it
// accepts, and json.Valid decides the rest (invalid UTF-8 inside strings,
// which json.Valid allows, escaped or repeated keys, deep nesting, and
// text that is not JSON).
func Valid(data []byte) bool {
	tp := tapes.Get().(*Tape)
	end, ok := tp.Parse(data, validMaxDepth)
	if cap(tp.Tokens) <= 4096 {
		tapes.Put(tp) // a huge text's tokens are not kept
	}
	if ok && OnlySpace(data[end:]) {
		return true
	}
	return json.Valid(data)
}
