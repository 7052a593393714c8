package jsbridge

import (
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The fast way to read what a branch is created and registered with
// ({"items": [...], "update": bool}) and a tool reference ({"$tool": id},
// {"$callable": id}): one tape pass over what JSON.stringify wrote, without
// encoding/json's reflection, which every program's first branch paid
// before its first validation. As decodeSpecTape, it answers only when
// every member is one decodeStrict would take as it is; anything else goes
// to decodeStrict, which decodes or words the refusal as before.

// decodeRegisterTape fills p from payload, or reports false.
func decodeRegisterTape(payload []byte, p *registerPayload) bool {
	return readTapeObject(payload, func(r *tapeReader, key string, v int32) bool {
		switch key {
		case "items":
			return r.items(v, &p.Items)
		case "update":
			return r.boolean(v, &p.Update)
		case "defer":
			return r.boolean(v, &p.Defer)
		}
		return false
	})
}

// items copies the text of each value of the array at token k.
func (r *tapeReader) items(k int32, dst *[]json.RawMessage) bool {
	t := r.toks[k]
	if t.Kind != jsontext.TokArray {
		return false
	}
	out := make([]json.RawMessage, 0, t.N)
	for next, i := k+1, int32(0); i < t.N; i, next = i+1, r.toks[next].Next {
		v := r.toks[next]
		out = append(out, append(json.RawMessage(nil), r.b[v.Start:v.End]...))
	}
	*dst = out
	return true
}

// decodeRefTape fills dst from a {"$tool": id} or {"$callable": id}
// reference, or reports false.
func decodeRefTape(raw []byte, dst *ref) bool {
	return readTapeObject(raw, func(r *tapeReader, key string, v int32) bool {
		switch key {
		case "$tool":
			return r.int64(v, &dst.Tool)
		case "$callable":
			return r.int64(v, &dst.Callable)
		}
		return false
	})
}

// int64 reads the integer at token k (digits only, within int64, as
// encoding/json takes it into an int64).
func (r *tapeReader) int64(k int32, dst **int64) bool {
	t := r.toks[k]
	if t.Kind != jsontext.TokNumber || t.Flags&jsontext.FlagInteger == 0 {
		return false
	}
	n, err := strconv.ParseInt(string(r.b[t.Start:t.End]), 10, 64)
	*dst = &n
	return err == nil
}
