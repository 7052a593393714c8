package jsbridge

import (
	"bytes"
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The fast way to read a branch.create or branch.register payload, as
// JSON.stringify writes it: {"items":[{"$tool":7},…],"update":false}. Each
// tool of a branch is one item, and encoding/json's reflection over the
// payload and each reference was most of a registration under
// WebAssembly. Anything else goes to decodeStrict and convertRef's slow
// path, which decode it or word the refusal as before.

// decodeRegisterTape fills p from payload as decodeStrict would, or
// reports false: only the exact keys "items" (an array) and "update" (a
// boolean), each once. The items are slices of payload, which convertRef
// reads but never keeps.
func decodeRegisterTape(payload []byte, p *registerPayload) bool {
	tp := payloadTapes.Get().(*jsontext.Tape)
	defer payloadTapes.Put(tp)
	end, ok := tp.Parse(payload, specMaxDepth)
	if !ok || !jsontext.OnlySpace(payload[end:]) || tp.Tokens[0].Kind != jsontext.TokObject {
		return false
	}
	r := tapeReader{b: payload, toks: tp.Tokens}
	return r.members(0, func(key string, v int32) bool {
		switch key {
		case "items":
			t := r.toks[v]
			if t.Kind != jsontext.TokArray {
				return false
			}
			p.Items = make([]json.RawMessage, 0, t.N)
			for i, n := v+1, int32(0); n < t.N; n++ {
				it := r.toks[i]
				p.Items = append(p.Items, json.RawMessage(payload[it.Start:it.End]))
				i = it.Next
			}
			return true
		case "update":
			return r.boolean(v, &p.Update)
		}
		return false
	})
}

// toolRefPrefix starts a Tool reference as JSON.stringify writes it.
var toolRefPrefix = []byte(`{"$tool":`)

// toolRefID reads a reference written exactly {"$tool":digits} (at most
// 18 digits, no leading zero), the handle decodeStrict would read from it;
// false for any other text, which convertRef decodes the slow way.
func toolRefID(raw []byte) (int64, bool) {
	if !bytes.HasPrefix(raw, toolRefPrefix) || raw[len(raw)-1] != '}' {
		return 0, false
	}
	digits := raw[len(toolRefPrefix) : len(raw)-1]
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var id int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		id = id*10 + int64(c-'0')
	}
	return id, true
}
