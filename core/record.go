package core

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/internal/redact"
)

// The lion_class values LionAGI writes into record metadata.
const (
	ToolClass            = "lionagi.protocols.action.tool.Tool"
	FunctionCallingClass = "lionagi.protocols.action.function_calling.FunctionCalling"
)

// ErrorNamer is implemented by errors that carry their own name for records:
// a Go callable can fail with an error that a record names as JS would
// (a TypeError, or the typeof of a non-Error value).
type ErrorNamer interface {
	ErrorName() string
}

// metadataKey returns the metadata key of a record mode: "metadata" for
// "python", "json" and "" (python), "node_metadata" for "db". Any other
// mode is refused with invalid-request.
func metadataKey(mode, tool string) (string, error) {
	switch mode {
	case "", "python", "json":
		return "metadata", nil
	case "db":
		return "node_metadata", nil
	}
	return "", Errorf(CodeInvalidRequest, tool, "toDict mode %q is not supported; use \"python\", \"json\" or \"db\".", mode)
}

// ToDict returns the tool's declaration record, LionAGI's Tool.to_dict:
// {id, created_at, metadata, mcp_config, tool_schema, request_options,
// strict_func_call, function} in that order. metadata is a copy with
// "lion_class" set to ToolClass; mode "db" names it "node_metadata", "python"
// (also "") and "json" give the same JSON. mcp_config is redacted again
// (internal/redact.Configs); request_options is the typed parameters schema (LionAGI
// writes the model class and its json mode fails). The callable, processors
// and their kwargs are never included. created_at is written exactly
// (shortest round-trip decimal). It refuses an unknown mode with
// invalid-request, and metadata or a config that is not JSON with
// unsupported-type.
func (t *Tool) ToDict(mode string) (json.RawMessage, error) {
	name := t.Function()
	metaKey, err := metadataKey(mode, name)
	if err != nil {
		return nil, err
	}
	meta, err := metadataJSON(t.Metadata, ToolClass, name)
	if err != nil {
		return nil, err
	}
	w := &objectWriter{tool: name}
	w.value("id", t.ID)
	w.raw("created_at", exactFloatJSON(t.CreatedAt))
	w.raw(metaKey, meta)
	if t.MCPConfig == nil {
		w.raw("mcp_config", []byte("null"))
	} else {
		red, err := redact.Configs(t.MCPConfig)
		if err != nil {
			return nil, Errorf(CodeUnsupportedType, name, "the MCP config of %s is not JSON-serialisable: %v", name, err)
		}
		w.value("mcp_config", red)
	}
	w.rawJSON("tool_schema", t.Schema)
	w.rawJSON("request_options", t.RequestOptions)
	w.value("strict_func_call", t.StrictFuncCall)
	w.value("function", name)
	return w.finish()
}

// objectWriter writes one JSON object member by member, in order.
type objectWriter struct {
	tool string
	b    bytes.Buffer
	n    int
	err  error
}

func (w *objectWriter) key(k string) {
	if w.n == 0 {
		w.b.WriteByte('{')
	} else {
		w.b.WriteByte(',')
	}
	w.n++
	kb, _ := jsontext.Marshal(k)
	w.b.Write(kb)
	w.b.WriteByte(':')
}

// raw writes already valid JSON.
func (w *objectWriter) raw(k string, v []byte) {
	w.key(k)
	w.b.Write(v)
}

// rawJSON writes a json.RawMessage compacted, or null when absent.
func (w *objectWriter) rawJSON(k string, v json.RawMessage) {
	if jsontext.Absent(v) {
		w.raw(k, []byte("null"))
		return
	}
	w.value(k, v)
}

// value marshals v.
func (w *objectWriter) value(k string, v any) {
	b, err := jsontext.Marshal(v)
	if err != nil {
		if w.err == nil {
			w.err = Errorf(CodeUnsupportedType, w.tool, "%q of the record of %s is not JSON-serialisable: %v", k, w.tool, err)
		}
		b = []byte("null")
	}
	w.raw(k, b)
}

func (w *objectWriter) finish() (json.RawMessage, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.n == 0 {
		return json.RawMessage("{}"), nil
	}
	w.b.WriteByte('}')
	return w.b.Bytes(), nil
}

// metadataJSON writes metadata's keys sorted (a Go map keeps no order), then
// lion_class last, as LionAGI appends it.
func metadataJSON(meta map[string]any, class, tool string) ([]byte, error) {
	w := &objectWriter{tool: tool}
	keys := make([]string, 0, len(meta))
	for k := range meta {
		if k != "lion_class" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		b, err := jsontext.Marshal(meta[k])
		if err != nil {
			return nil, Errorf(CodeUnsupportedType, tool, "metadata %q of %s is not JSON-serialisable: %v", k, tool, err)
		}
		w.raw(k, b)
	}
	w.value("lion_class", class)
	return w.finish()
}

// responseJSON marshals a response, or gives "<unserializable>".
func responseJSON(v any) (out []byte) {
	defer func() {
		if recover() != nil {
			out = []byte(`"<unserializable>"`)
		}
	}()
	b, err := jsontext.Marshal(v)
	if err != nil {
		return []byte(`"<unserializable>"`)
	}
	return b
}

// ErrorName is the name a record gives err: "ToolgateError" for an *Error,
// ErrorName() for an ErrorNamer, otherwise the Go type name without package
// path or pointer (e.g. "errorString" for errors.New).
func ErrorName(err error) string {
	if err == nil {
		return ""
	}
	if _, ok := err.(*Error); ok {
		return "ToolgateError"
	}
	if n, ok := err.(ErrorNamer); ok {
		if name := safeErrorName(n); name != "" {
			return name
		}
	}
	t := reflect.TypeOf(err)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}

func safeErrorName(n ErrorNamer) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	return n.ErrorName()
}

func safeErrorText(err error) (s string) {
	defer func() {
		if recover() != nil {
			s = "<unprintable error>"
		}
	}()
	return err.Error()
}

// exactFloatJSON writes f exactly (the shortest decimal that round-trips); NaN
// and infinities, which JSON cannot carry, become null.
func exactFloatJSON(f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null")
	}
	return []byte(strconv.FormatFloat(f, 'f', -1, 64))
}
