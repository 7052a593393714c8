package mcpops

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/mcp"

	"github.com/toolgate/toolgate/core"
)

// The JSON payloads of the MCP operations. Payloads are JSON objects; a key
// whose value is null counts as omitted. They refuse with invalid-request a
// payload that is not a JSON object or has an unknown top-level key, and
// with unsupported-type an unknown option key or an option value of the
// wrong type, naming the call and the key. Security objects go through
// mcp.ParseSecurity.

// registerServer is b.registerMcpServer. payload: {"config": {name, url,
// transport?, headers?}, "options": {toolNames?, requestOptions?, update?,
// security?, qualify?, result?, filter?, requireApproval?, approve? (a
// host function id), approvalTimeoutMs?, onProgress?, onToolsChanged?,
// roots?, sampling?, elicitation?, onWarning?}} (hooks and listeners as
// host function ids); the result is {"names": the registered names,
// "warnings": [{"server", "error"}] (the discovered tools left out)}; later
// warnings (a refresh's) go to onWarning.
// The policy is options.security only (a "security" key in the config is
// ignored). Refusals are mcp.ValidateServerConfig's and mcp.RegisterServer's.
func registerServer(ctx context.Context, p *mcp.Pool, m *core.Manager, payload []byte) (json.RawMessage, error) {
	const call = "registerMcpServer"
	top, err := payloadObject(call, payload, "config", "options")
	if err != nil {
		return nil, err
	}
	raw, ok := top["config"]
	if !ok || jsontext.Kind(raw) != jsontext.Object {
		return nil, core.Errorf(core.CodeInvalidTool, "", "%s: config must be an object {name, url, transport?, headers?}, got %s", call, jsontext.Kind(raw))
	}
	cfg, err := mcp.ValidateServerConfig("", raw)
	if err != nil {
		return nil, err
	}
	cfg.Security = nil
	opts, err := optionsObject(call, top["options"], Calls[call].Go...)
	if err != nil {
		return nil, err
	}
	var o mcp.RegisterOptions
	if o.ToolNames, err = stringList(call, "toolNames", opts["toolNames"]); err != nil {
		return nil, err
	}
	if o.RequestOptions, err = schemaMap(call, "requestOptions", opts["requestOptions"]); err != nil {
		return nil, err
	}
	if o.Update, err = boolOption(call, "update", opts["update"]); err != nil {
		return nil, err
	}
	if o.Security, err = securityOption(opts["security"]); err != nil {
		return nil, err
	}
	if v, ok := opts["qualify"]; ok {
		q, err := boolOption(call, "qualify", v)
		if err != nil {
			return nil, err
		}
		o.Qualify = &q
	}
	if o.Result, err = resultOption(call, opts["result"]); err != nil {
		return nil, err
	}
	if o.Tasks, err = tasksOption(call, opts["tasks"]); err != nil {
		return nil, err
	}
	if o.Filter, err = filterOption(call, opts["filter"]); err != nil {
		return nil, err
	}
	if o.Approval, err = approvalOption(call, opts); err != nil {
		return nil, err
	}
	if o.OnProgress, o.OnToolsChanged, err = listenerOptions(call, opts, true); err != nil { // hooks.go
		return nil, err
	}
	if o.Hooks, err = hooksOption(call, opts); err != nil {
		return nil, err
	}
	if o.Auth, err = authOption(call, opts["auth"]); err != nil { // auth.go
		return nil, err
	}
	warnings, err := newWarnings(call, opts)
	if err != nil {
		return nil, err
	}
	o.OnWarning = warnings.add
	names, err := mcp.RegisterServer(ctx, p, m, cfg, &o)
	if err != nil {
		return nil, err
	}
	list, _ := json.Marshal(names) // strings only: always marshals
	return json.RawMessage(`{"names":` + string(list) + `,"warnings":` + string(warnings.json()) + `}`), nil
}

// loadMcpConfig is b.loadMcpConfig. payload: {"config": <.mcp.json
// object or its JSON text>, "options": {serverNames?, update?, security?,
// strict?}};
// the result is {"result": {server: [names]} in server order, "warnings":
// [{"server", "error": {code, message, tool?}}]}. A missing config is
// invalid-request; other refusals are mcp.LoadMcpConfig's.
func loadMcpConfig(ctx context.Context, p *mcp.Pool, m *core.Manager, payload []byte) (json.RawMessage, error) {
	const call = "loadMcpConfig"
	top, err := payloadObject(call, payload, "config", "options")
	if err != nil {
		return nil, err
	}
	data, err := configText(call, top["config"])
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, core.Errorf(core.CodeInvalidRequest, "", "%s: a config is required", call)
	}
	opts, err := optionsObject(call, top["options"], Calls[call].Go...)
	if err != nil {
		return nil, err
	}
	var o mcp.LoadOptions
	if err := loadOptions(call, opts, &o); err != nil {
		return nil, err
	}
	if o.OnProgress, o.OnToolsChanged, err = listenerOptions(call, opts, true); err != nil { // hooks.go
		return nil, err
	}
	warnings, err := newWarnings(call, opts)
	if err != nil {
		return nil, err
	}
	o.OnWarning = warnings.add
	servers, names, err := mcp.LoadMcpConfig(ctx, p, m, data, &o)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"result":{`)
	for i, s := range servers {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(s)
		v, _ := json.Marshal(names[s]) // strings only: always marshals
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString(`},"warnings":`)
	b.Write(warnings.json())
	b.WriteByte('}')
	return b.Bytes(), nil
}

// loadMcpTools is tg.loadMcpTools. payload: {"config"?: <.mcp.json object
// or its JSON text>, "options": {serverNames?, requestOptionsMap?,
// security?, strict?}}; it returns the tools and the warnings as a JSON array
// [{"server", "error": {code, message, tool?}}] ("[]" when none).
// Refusals are mcp.LoadMcpTools'.
func loadMcpTools(ctx context.Context, p *mcp.Pool, payload []byte) ([]*core.Tool, json.RawMessage, error) {
	const call = "loadMcpTools"
	top, err := payloadObject(call, payload, "config", "options")
	if err != nil {
		return nil, nil, err
	}
	data, err := configText(call, top["config"])
	if err != nil {
		return nil, nil, err
	}
	opts, err := optionsObject(call, top["options"], Calls[call].Go...)
	if err != nil {
		return nil, nil, err
	}
	var o mcp.LoadOptions
	if err := loadOptions(call, opts, &o); err != nil {
		return nil, nil, err
	}
	if o.OnProgress, _, err = listenerOptions(call, opts, false); err != nil { // hooks.go
		return nil, nil, err
	}
	if v, ok := opts["requestOptionsMap"]; ok {
		var servers map[string]json.RawMessage
		if jsontext.Kind(v) != jsontext.Object || json.Unmarshal(v, &servers) != nil {
			return nil, nil, optionTypeError(call, "requestOptionsMap", "an object {server: {tool: schema}}", v)
		}
		o.RequestOptionsMap = make(map[string]map[string]json.RawMessage, len(servers))
		for s, m := range servers {
			if jsontext.Kind(m) == jsontext.Null {
				continue
			}
			if o.RequestOptionsMap[s], err = schemaMap(call, "requestOptionsMap["+strconv.Quote(s)+"]", m); err != nil {
				return nil, nil, err
			}
		}
	}
	warnings, err := newWarnings(call, opts)
	if err != nil {
		return nil, nil, err
	}
	o.OnWarning = warnings.add
	tools, err := mcp.LoadMcpTools(ctx, p, data, &o)
	if err != nil {
		return nil, nil, err
	}
	return tools, warnings.json(), nil
}

// checkURL is tg.mcp.checkUrl: payload {"url": string, "security":
// object or null} gives {"allowed": true} or {"allowed": false, "rule":
// rule, "reason": message}. It refuses with unsupported-type a url that is not a string and
// a security object mcp.ParseSecurity refuses.
func checkURL(payload []byte) (json.RawMessage, error) {
	const call = "mcp.checkUrl"
	top, err := payloadObject(call, payload, "url", "security")
	if err != nil {
		return nil, err
	}
	var u string
	if v := top["url"]; jsontext.Kind(v) != jsontext.String || json.Unmarshal(v, &u) != nil {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "%s: url must be a string, got %s", call, jsontext.Kind(v))
	}
	sec, err := securityOption(top["security"])
	if err != nil {
		return nil, err
	}
	return json.Marshal(mcp.CheckURLVerdict(u, sec))
}

// payloadObject decodes a payload object, dropping null members and
// refusing unknown keys with invalid-request.
func payloadObject(call string, payload []byte, keys ...string) (map[string]json.RawMessage, error) {
	top, ok := jsontext.Members(payload)
	if !ok {
		return nil, core.Errorf(core.CodeInvalidRequest, "", "%s: the payload must be one JSON object", call)
	}
	for k, v := range top {
		if !slices.Contains(keys, k) {
			return nil, core.Errorf(core.CodeInvalidRequest, "", "%s: unknown payload key %s", call, strconv.QuoteToASCII(k))
		}
		if jsontext.Kind(v) == jsontext.Null {
			delete(top, k)
		}
	}
	return top, nil
}

// optionsObject decodes an options object (absent or null: empty),
// dropping null members and refusing unknown keys with unsupported-type.
func optionsObject(call string, raw json.RawMessage, keys ...string) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if raw == nil {
		return out, nil
	}
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &out) != nil {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "%s: options must be an object, got %s", call, jsontext.Kind(raw))
	}
	for k, v := range out {
		if !slices.Contains(keys, k) {
			return nil, core.Errorf(core.CodeUnsupportedType, "", "%s: unknown option %s; known options are %s",
				call, strconv.QuoteToASCII(k), strings.Join(keys, ", "))
		}
		if jsontext.Kind(v) == jsontext.Null {
			delete(out, k)
		}
	}
	return out, nil
}

// loadOptions reads serverNames, update, result, strict, filter, the
// approval options, the client capability hooks and security.
func loadOptions(call string, opts map[string]json.RawMessage, o *mcp.LoadOptions) error {
	var err error
	if o.Result, err = resultOption(call, opts["result"]); err != nil {
		return err
	}
	if o.Tasks, err = tasksOption(call, opts["tasks"]); err != nil {
		return err
	}
	if o.ServerNames, err = stringList(call, "serverNames", opts["serverNames"]); err != nil {
		return err
	}
	if o.Update, err = boolOption(call, "update", opts["update"]); err != nil {
		return err
	}
	if o.Strict, err = boolOption(call, "strict", opts["strict"]); err != nil {
		return err
	}
	if o.Filter, err = filterOption(call, opts["filter"]); err != nil {
		return err
	}
	if o.Approval, err = approvalOption(call, opts); err != nil {
		return err
	}
	if o.Hooks, err = hooksOption(call, opts); err != nil {
		return err
	}
	if o.Auth, err = authMapOption(call, opts["auth"]); err != nil { // auth.go
		return err
	}
	if o.Env, err = envOption(call, opts["env"]); err != nil {
		return err
	}
	o.Security, err = securityOption(opts["security"])
	return err
}

// configText returns a loader's config as .mcp.json text: an object as it
// is, a JSON string as its content; absent gives nil.
func configText(call string, raw json.RawMessage) ([]byte, error) {
	switch jsontext.Kind(raw) {
	case jsontext.Nothing:
		return nil, nil
	case jsontext.Object:
		return raw, nil
	case jsontext.String:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			break
		}
		return []byte(s), nil
	}
	return nil, core.Errorf(core.CodeInvalidRequest, "", "%s: the config must be a .mcp.json object or its JSON text, got %s", call, jsontext.Kind(raw))
}

// stringList decodes an optional array of strings.
func stringList(call, key string, raw json.RawMessage) ([]string, error) {
	if raw == nil {
		return nil, nil
	}
	var out []string
	if jsontext.Kind(raw) != jsontext.Array || json.Unmarshal(raw, &out) != nil {
		return nil, optionTypeError(call, key, "an array of strings", raw)
	}
	return out, nil
}

// envOption decodes a loader's env, an object of strings (absent: nil,
// where no variable is set). Its refusal names the variable, never a value.
func envOption(call string, raw json.RawMessage) (map[string]string, error) {
	if raw == nil {
		return nil, nil
	}
	ms, ok := jsontext.Split(raw)
	if !ok {
		return nil, optionTypeError(call, "env", "an object of strings {NAME: value}", raw)
	}
	env := make(map[string]string, len(ms))
	for _, m := range ms {
		if jsontext.Kind(m.Value) != jsontext.String {
			return nil, optionTypeError(call, "env."+m.Key, "a string", m.Value)
		}
		env[m.Key] = jsontext.Unquote(m.Value)
	}
	return env, nil
}

// boolOption decodes an optional boolean (absent: false).
func boolOption(call, key string, raw json.RawMessage) (bool, error) {
	if raw == nil {
		return false, nil
	}
	if jsontext.Kind(raw) != jsontext.Boolean {
		return false, optionTypeError(call, key, "a boolean", raw)
	}
	return string(raw) == "true", nil
}

// schemaMap decodes an optional object of JSON Schemas (a null value means
// none for that tool).
func schemaMap(call, key string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	if raw == nil {
		return nil, nil
	}
	var out map[string]json.RawMessage
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &out) != nil {
		return nil, optionTypeError(call, key, "an object mapping tool names to JSON Schemas", raw)
	}
	for k, v := range out {
		switch jsontext.Kind(v) {
		case jsontext.Null:
			delete(out, k)
		case jsontext.Object:
		default:
			return nil, optionTypeError(call, key+"["+strconv.Quote(k)+"]", "a JSON Schema object", v)
		}
	}
	return out, nil
}

// securityOption parses an optional security object (absent: nil).
func securityOption(raw json.RawMessage) (*mcp.Security, error) {
	if raw == nil {
		return nil, nil
	}
	return mcp.ParseSecurity(raw)
}

// optionTypeError is the unsupported-type error of an option of the wrong
// type.
func optionTypeError(call, key, want string, got json.RawMessage) error {
	return core.Errorf(core.CodeUnsupportedType, "", "%s: option %s must be %s, got %s", call, key, want, jsontext.Kind(got))
}

// warningList collects the warnings of one call (a loader's skipped
// servers, the discovered tools left out for their x-mcp-header
// annotations) as JSON for its result, until done; after it (a refresh of
// a followed registration) each warning goes to the onWarning host
// function, when there is one.
type warningList struct {
	mu     sync.Mutex
	items  []warningItem
	done   bool
	notify int64 // the onWarning host function (0: none)
}

type warningItem struct {
	Server string      `json:"server"`
	Error  *core.Error `json:"error"`
}

// add records one warning, or after done notifies it.
func (w *warningList) add(server string, err error) {
	item := warningItem{Server: server, Error: core.AsError(err)}
	w.mu.Lock()
	if !w.done {
		w.items = append(w.items, item)
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	if b, err := json.Marshal(item); err == nil && w.notify != 0 {
		jsbridge.HostNotify(w.notify, b)
	}
}

// json ends the collecting and returns the warnings as a JSON array.
func (w *warningList) json() json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	if len(w.items) == 0 {
		return json.RawMessage("[]")
	}
	b, err := json.Marshal(w.items)
	if err != nil {
		return json.RawMessage("[]")
	}
	return b
}

// newWarnings is the warning list of call, notifying the onWarning host
// function of opts after the call.
func newWarnings(call string, opts map[string]json.RawMessage) (*warningList, error) {
	id, err := hookID(call, "onWarning", opts["onWarning"])
	if err != nil {
		return nil, err
	}
	return &warningList{notify: id}, nil
}

// tasksOption reads the tasks option: one of mcp.TaskModes ("required",
// the default when absent, or "always"); anything else is unsupported-type.
func tasksOption(call string, raw json.RawMessage) (mcp.TaskMode, error) {
	if len(raw) == 0 {
		return mcp.TasksRequired, nil
	}
	var v string
	if jsontext.Kind(raw) != jsontext.String || json.Unmarshal(raw, &v) != nil {
		return "", optionTypeError(call, "tasks", mcp.TaskModeChoice(), raw)
	}
	return mcp.ParseTaskMode(call, v)
}

// resultOption reads the result option: one of mcp.ResultModes ("lionagi",
// the default when absent, or "full"); anything else is unsupported-type.
func resultOption(call string, raw json.RawMessage) (mcp.ResultMode, error) {
	if len(raw) == 0 {
		return mcp.ResultLionAGI, nil
	}
	var v string
	if jsontext.Kind(raw) != jsontext.String || json.Unmarshal(raw, &v) != nil {
		return "", optionTypeError(call, "result", mcp.ResultModeChoice(), raw)
	}
	return mcp.ParseResultMode(call, v)
}
