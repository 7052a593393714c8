package jsbridge

import (
	"encoding/json"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// eventSpec is a JS event's state as npm/lib/function-calling.js sends it for
// its record: every value already JSON (JS spells its BigInts
// {"$bigint": digits} and a value it cannot serialise "<unserializable>"),
// the thrown value described as a core.RecordedError.
type eventSpec struct {
	Mode      string              `json:"mode"`
	ID        string              `json:"id"`
	CreatedAt float64             `json:"createdAt"`
	Metadata  json.RawMessage     `json:"metadata"`
	Function  string              `json:"function"`
	Arguments json.RawMessage     `json:"arguments"`
	CallID    string              `json:"callId"`
	Status    string              `json:"status"`
	Duration  *float64            `json:"duration"`
	Response  json.RawMessage     `json:"response"`
	Error     *core.RecordedError `json:"error"`
}

// opEventToDict writes a JS event's record with core.CallRecord, the writer
// Go's own events use. It needs no handle, so a record is written even after
// the instance that ran the call has stopped. It refuses metadata that is
// not a JSON object with unsupported-type, and what CallRecord.ToDict
// refuses.
func opEventToDict(_ *Bridge, _ int64, payload []byte) (any, error) {
	var p eventSpec
	if err := decodeStrict(payload, &p, "event record"); err != nil {
		return nil, err
	}
	r := core.CallRecord{
		ID: p.ID, CreatedAt: p.CreatedAt, Function: p.Function, CallID: p.CallID,
		Status: core.Status(p.Status), Duration: p.Duration,
	}
	if !jsontext.Absent(p.Metadata) {
		meta, ok := jsontext.Members(p.Metadata)
		if !ok {
			return nil, core.Errorf(core.CodeUnsupportedType, p.Function, "the metadata of the call of %s must be an object, got %s", p.Function, jsontext.Kind(p.Metadata))
		}
		r.Metadata = make(map[string]any, len(meta))
		for k, v := range meta {
			r.Metadata[k] = v
		}
	}
	if !jsontext.Absent(p.Arguments) {
		r.Arguments = p.Arguments
	}
	if p.Response != nil {
		r.Response = p.Response
	}
	if p.Error != nil {
		r.Err = p.Error
	}
	if p.Mode == "" {
		p.Mode = "python"
	}
	return r.ToDict(p.Mode)
}
