package jsbridge

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// The JSON of a toolInfo, written member by member as JSON.parse reads
// json.Marshal's (the same members, omitempty alike) without reflection:
// every tool.create returns one, and encoding/json's reflection over it
// was a seventh of a tool's creation under WebAssembly. Raw members are
// written as they are (core produced them); the metadata, a parameter with
// a default or fields, and a creation time json.Marshal would spell with
// an exponent still go through encoding/json.

// appendJSON appends in's JSON to buf. It refuses what json.Marshal
// refuses: metadata JSON cannot carry, or an unknown parameter kind.
func (in *toolInfo) appendJSON(buf []byte) ([]byte, error) {
	buf = append(buf, `{"id":`...)
	buf = strconv.AppendInt(buf, in.ID, 10)
	buf = append(buf, `,"uuid":`...)
	buf = jsontext.AppendString(buf, in.UUID)
	buf = append(buf, `,"createdAt":`...)
	var err error
	if buf, err = appendFloat(buf, in.CreatedAt); err != nil {
		return nil, err
	}
	buf = append(buf, `,"function":`...)
	buf = jsontext.AppendString(buf, in.Function)
	buf = append(buf, `,"toolSchema":`...)
	buf = appendRaw(buf, in.ToolSchema)
	buf = append(buf, `,"requiredFields":`...)
	buf = jsontext.AppendStrings(buf, in.RequiredFields)
	if in.RequiredFieldsError != nil {
		buf = append(buf, `,"requiredFieldsError":`...)
		start := len(buf)
		buf = appendError(buf, in.RequiredFieldsError)
		buf = append(buf[:start], buf[start+1:]...) // without the status byte
	}
	buf = append(buf, `,"minimumAcceptableFields":`...)
	buf = jsontext.AppendStrings(buf, in.MinimumAcceptableFields)
	buf = append(buf, `,"strictFuncCall":`...)
	buf = strconv.AppendBool(buf, in.StrictFuncCall)
	if in.Signature != nil {
		buf = append(buf, `,"signature":`...)
		if buf, err = appendSignature(buf, in.Signature); err != nil {
			return nil, err
		}
	}
	buf = append(buf, `,"metadata":`...)
	if len(in.Metadata) == 0 && in.Metadata != nil {
		buf = append(buf, "{}"...)
	} else if buf, err = appendMarshal(buf, in.Metadata); err != nil {
		return nil, err
	}
	if in.MCP {
		buf = append(buf, `,"mcp":true`...)
	}
	if len(in.MCPTool) > 0 {
		buf = append(buf, `,"mcpTool":`...)
		buf = appendRaw(buf, in.MCPTool)
	}
	if len(in.InputExamples) > 0 {
		buf = append(buf, `,"inputExamples":[`...)
		for i, ex := range in.InputExamples {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendRaw(buf, ex)
		}
		buf = append(buf, ']')
	}
	return append(buf, '}'), nil
}

// MarshalJSON is appendJSON for json.Marshal (a toolInfo inside another
// result).
func (in *toolInfo) MarshalJSON() ([]byte, error) { return in.appendJSON(nil) }

// appendSignature appends sig as json.Marshal writes a core.Signature.
func appendSignature(buf []byte, sig *core.Signature) ([]byte, error) {
	buf = append(buf, `{"name":`...)
	buf = jsontext.AppendString(buf, sig.Name)
	if sig.Doc != "" {
		buf = append(buf, `,"doc":`...)
		buf = jsontext.AppendString(buf, sig.Doc)
	}
	buf = append(buf, `,"params":`...)
	if sig.Params == nil {
		return append(buf, "null}"...), nil
	}
	buf = append(buf, '[')
	for i := range sig.Params {
		p := &sig.Params[i]
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if p.HasDefault || len(p.Default) > 0 || len(p.Fields) > 0 {
			buf, err = appendMarshal(buf, p)
		} else {
			buf = append(buf, `{"name":`...)
			buf = jsontext.AppendString(buf, p.Name)
			buf = append(buf, `,"kind":`...)
			var kind []byte
			if kind, err = p.Kind.MarshalJSON(); err == nil {
				buf = append(buf, kind...)
				if p.Type != "" {
					buf = append(buf, `,"type":`...)
					buf = jsontext.AppendString(buf, p.Type)
				}
				buf = append(buf, '}')
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return append(buf, "]}"...), nil
}

// appendRaw appends raw JSON, null when empty (as json.Marshal writes a
// nil json.RawMessage).
func appendRaw(buf []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(buf, "null"...)
	}
	return append(buf, raw...)
}

// appendFloat appends f as json.Marshal writes a float64, or as a decimal
// JSON.parse reads as the same double; the spellings with an exponent go
// through json.Marshal.
func appendFloat(buf []byte, f float64) ([]byte, error) {
	if text, ok := appendMicros(buf, f); ok {
		return text, nil
	}
	if abs := math.Abs(f); abs == 0 || abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(buf, f, 'f', -1, 64), nil
	}
	return appendMarshal(buf, f)
}

// appendMicros appends a positive f below 2^53 microseconds that is a
// whole number of microseconds divided by 1e6 (a creation time,
// core.epochSeconds) as that decimal: seconds, a point and the
// microseconds without trailing zeros. Division is correctly rounded, so
// the double nearest that decimal, what JSON.parse reads, is f itself;
// no float formatting runs (strconv's is slow to start under
// WebAssembly). false for any other f.
func appendMicros(buf []byte, f float64) ([]byte, bool) {
	if !(f >= 1 && f < 1<<53/1e6) {
		return buf, false
	}
	us := int64(math.Round(f * 1e6))
	if float64(us)/1e6 != f {
		return buf, false
	}
	buf = strconv.AppendInt(buf, us/1e6, 10)
	frac := us % 1e6
	if frac == 0 {
		return buf, true
	}
	digits := [6]byte{}
	for i := 5; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := 6
	for digits[n-1] == '0' {
		n--
	}
	return append(append(buf, '.'), digits[:n]...), true
}

// appendMarshal appends v's json.Marshal.
func appendMarshal(buf []byte, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(buf, data...), nil
}
