package core

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The lion_class values LionAGI writes into record metadata.
const (
	ToolClass            = "lionagi.protocols.action.tool.Tool"
	FunctionCallingClass = "lionagi.protocols.action.function_calling.FunctionCalling"
)

// Redacted replaces every secret in a record.
const Redacted = "[redacted]"

// ErrorNamer is implemented by errors that carry their own name for records,
// such as a wrapped JS error (its name, or its typeof for a non-Error value).
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
// (RedactMCPConfig); request_options is the typed parameters schema (LionAGI
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
		red, err := RedactMCPConfig(t.MCPConfig)
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

// ToDict returns the event's record, LionAGI's FunctionCalling.to_dict:
// {id, created_at, metadata, execution: {status, duration, response, error,
// retryable}, function, arguments}. metadata carries "lion_class" =
// FunctionCallingClass ("node_metadata" in mode "db"); duration is null
// before Invoke; a response that cannot be marshalled is
// "<unserializable>"; error is null or {"error": name, "message": ...}
// where name is "ToolgateError" (with "code", and "issues" when there are
// any) for an *Error, the ErrorName of an ErrorNamer, otherwise the Go type
// name without package or pointer; retryable is always null. It refuses an
// unknown mode with invalid-request.
func (fc *FunctionCalling) ToDict(mode string) (json.RawMessage, error) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	name := fc.Function()
	metaKey, err := metadataKey(mode, name)
	if err != nil {
		return nil, err
	}
	meta, err := metadataJSON(fc.Metadata, FunctionCallingClass, name)
	if err != nil {
		return nil, err
	}
	status := fc.Status
	if status == "" {
		status = StatusPending
	}
	ex := &objectWriter{tool: name}
	ex.value("status", string(status))
	if fc.Duration == nil {
		ex.raw("duration", []byte("null"))
	} else {
		ex.raw("duration", exactFloatJSON(*fc.Duration))
	}
	ex.raw("response", responseJSON(fc.Response))
	ex.raw("error", errorJSON(fc.Err))
	ex.raw("retryable", []byte("null"))
	exec, err := ex.finish()
	if err != nil {
		return nil, err
	}

	w := &objectWriter{tool: name}
	w.value("id", fc.ID)
	w.raw("created_at", exactFloatJSON(fc.CreatedAt))
	w.raw(metaKey, meta)
	w.raw("execution", exec)
	w.value("function", name)
	if fc.Arguments == nil {
		w.raw("arguments", []byte("{}"))
	} else {
		w.value("arguments", fc.Arguments)
	}
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
	kb, _ := marshalUnescaped(k)
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
	if rawAbsent(v) {
		w.raw(k, []byte("null"))
		return
	}
	w.value(k, v)
}

// value marshals v.
func (w *objectWriter) value(k string, v any) {
	b, err := marshalUnescaped(v)
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
		b, err := marshalUnescaped(meta[k])
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
	b, err := marshalUnescaped(v)
	if err != nil {
		return []byte(`"<unserializable>"`)
	}
	return b
}

// errorJSON writes an error as LionAGI's {"error": name, "message": ...}.
func errorJSON(err error) []byte {
	if err == nil {
		return []byte("null")
	}
	w := &objectWriter{}
	if e, ok := err.(*Error); ok && e != nil {
		w.value("error", "ToolgateError")
		w.value("message", e.Message)
		w.value("code", string(e.Code))
		if len(e.Issues) > 0 {
			w.value("issues", e.Issues)
		}
	} else {
		w.value("error", ErrorName(err))
		w.value("message", safeErrorText(err))
	}
	b, ferr := w.finish()
	if ferr != nil {
		return []byte(`{"error":"error","message":"<unserializable>"}`)
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

// marshalUnescaped marshals v like json.Marshal but leaves <, > and & as they
// are.
func marshalUnescaped(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// secretKeyPattern matches key names whose values are secrets.
var secretKeyPattern = regexp.MustCompile(`(?i)token|secret|passw(or)?d|authorization|api[_-]?key|cookie|credential|private[_-]?key`)

// RedactMCPConfig returns a redacted deep copy of an MCP config (normalised
// through JSON): every value under a "headers" or "env" key, and every value
// of a key matching token, secret, password, authorization, api key, cookie,
// credential or private key (case-insensitively) becomes "[redacted]"
// (keys are kept); in every string that is a URL the userinfo and each query
// and fragment value are redacted; in string lists a sensitive "--flag=value"
// or "NAME=value" loses its value, and the item after a sensitive "--flag"
// is redacted. The server alias, "_original_tool_name", the URL's scheme,
// host and path are kept. Redacting twice gives the same result. It refuses
// a config that does not marshal to JSON.
func RedactMCPConfig(cfg map[string]any) (map[string]any, error) {
	if cfg == nil {
		return nil, nil
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var generic map[string]any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	return redactConfigObject(generic), nil
}

func redactConfigObject(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = redactConfigMember(k, v)
	}
	return out
}

// redactConfigMember redacts the value of key k.
func redactConfigMember(k string, v any) any {
	if v == nil {
		return nil
	}
	switch strings.ToLower(k) {
	case "headers", "env":
		if m, ok := v.(map[string]any); ok {
			out := make(map[string]any, len(m))
			for hk, hv := range m {
				if hv == nil {
					out[hk] = nil
				} else {
					out[hk] = Redacted
				}
			}
			return out
		}
		return Redacted
	}
	if secretKeyPattern.MatchString(k) {
		return Redacted
	}
	return redactConfigValue(v)
}

func redactConfigValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return redactConfigObject(x)
	case []any:
		return redactConfigList(x)
	case string:
		return redactConfigString(x)
	}
	return v
}

// redactConfigList redacts each item; a sensitive flag without "=value" redacts
// the string item after it.
func redactConfigList(xs []any) []any {
	out := make([]any, len(xs))
	redactNext := false
	for i, x := range xs {
		s, isString := x.(string)
		if redactNext && isString {
			out[i] = Redacted
			redactNext = false
			continue
		}
		redactNext = false
		if !isString {
			out[i] = redactConfigValue(x)
			continue
		}
		if strings.HasPrefix(s, "-") && !strings.Contains(s, "=") && secretKeyPattern.MatchString(strings.TrimLeft(s, "-")) {
			redactNext = true
			out[i] = s
			continue
		}
		out[i] = redactConfigString(s)
	}
	return out
}

// redactConfigString redacts a URL's credentials, or the value of a sensitive
// NAME=value / --flag=value.
func redactConfigString(s string) string {
	if u, ok := redactURLCredentials(s); ok {
		return u
	}
	if i := strings.IndexByte(s, '='); i > 0 {
		name := strings.TrimLeft(s[:i], "-")
		if !strings.ContainsAny(name, " \t/") && secretKeyPattern.MatchString(name) {
			return s[:i+1] + Redacted
		}
	}
	return s
}

var urlSchemePrefix = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*://`)

// redactURLCredentials redacts the userinfo and the query and fragment values of a
// string that starts with scheme://; ok is false for other strings.
func redactURLCredentials(s string) (string, bool) {
	t := strings.TrimSpace(s)
	loc := urlSchemePrefix.FindStringIndex(t)
	if loc == nil {
		return s, false
	}
	head, rest := t[:loc[1]], t[loc[1]:]
	end := strings.IndexAny(rest, "/\\?#")
	if end < 0 {
		end = len(rest)
	}
	auth, tail := rest[:end], rest[end:]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = Redacted + "@" + auth[at+1:]
	}
	path, query, fragment := tail, "", ""
	hasQuery, hasFragment := false, false
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path, fragment, hasFragment = path[:i], path[i+1:], true
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, query, hasQuery = path[:i], path[i+1:], true
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(auth)
	b.WriteString(path)
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(redactQueryPairs(query))
	}
	if hasFragment {
		b.WriteByte('#')
		b.WriteString(redactQueryPairs(fragment))
	}
	return b.String(), true
}

// redactQueryPairs keeps the names of name=value pairs and redacts every value
// (a bare item is redacted whole).
func redactQueryPairs(q string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		if p == "" {
			continue
		}
		if j := strings.IndexByte(p, '='); j >= 0 {
			parts[i] = p[:j+1] + Redacted
		} else {
			parts[i] = Redacted
		}
	}
	return strings.Join(parts, "&")
}
