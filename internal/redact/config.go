package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// secretKey matches key names whose values are secrets (compiled on first
// use: nothing at package init that a first validation does not need).
var secretKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)token|secret|passw(or)?d|authorization|api[_-]?key|cookie|credential|private[_-]?key`)
})

// Config returns a redacted deep copy of an MCP config (normalised through
// JSON, numbers kept exact): every value under a "headers" or "env" key
// (any case), and every value of a key matching token, secret, password,
// authorization, api key, cookie, credential or private key
// (case-insensitively), becomes Mark, keys kept; every string that starts
// with scheme:// is redacted by URL; in string lists a sensitive
// "--flag=value" or "NAME=value" loses its value and the item after a
// sensitive "--flag" becomes Mark. Other keys and values (the server alias,
// "_original_tool_name") are kept. It refuses a config that does not
// marshal to JSON.
func Config(cfg map[string]any) (map[string]any, error) {
	generic, err := normalise(cfg)
	if err != nil || generic == nil {
		return nil, err
	}
	return object(generic), nil
}

// normalise deep-copies m through JSON (numbers kept exact); nil stays nil.
func normalise(m map[string]any) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var generic map[string]any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	return generic, nil
}

func object(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = member(k, v)
	}
	return out
}

// member redacts the value of key k.
func member(k string, v any) any {
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
					out[hk] = Mark
				}
			}
			return out
		}
		return Mark
	}
	if secretKey().MatchString(k) {
		return Mark
	}
	return value(v)
}

func value(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return object(x)
	case []any:
		return list(x)
	case string:
		return configString(x)
	}
	return v
}

// list redacts each item; a sensitive flag without "=value" redacts the
// string item after it.
func list(xs []any) []any {
	out := make([]any, len(xs))
	redactNext := false
	for i, x := range xs {
		s, isString := x.(string)
		if redactNext && isString {
			out[i] = Mark
			redactNext = false
			continue
		}
		redactNext = false
		if !isString {
			out[i] = value(x)
			continue
		}
		if strings.HasPrefix(s, "-") && !strings.Contains(s, "=") && secretKey().MatchString(strings.TrimLeft(s, "-")) {
			redactNext = true
			out[i] = s
			continue
		}
		out[i] = configString(s)
	}
	return out
}

// configString redacts a URL, or the value of a sensitive NAME=value /
// --flag=value.
func configString(s string) string {
	if looksLikeURL(s) {
		return URL(strings.TrimSpace(s))
	}
	if i := strings.IndexByte(s, '='); i > 0 {
		name := strings.TrimLeft(s[:i], "-")
		if !strings.ContainsAny(name, " \t/") && secretKey().MatchString(name) {
			return s[:i+1] + Mark
		}
	}
	return s
}

// Configs redacts a map of server alias → MCP config, as a proxy tool keeps
// one ({name: config}): each config as Config does, the aliases kept as they
// are even when one contains a word like "token" (it names a server or a
// tool, not a field). A value that is not an object is redacted whole; a
// map that does not marshal to JSON is refused.
func Configs(byAlias map[string]any) (map[string]any, error) {
	generic, err := normalise(byAlias)
	if err != nil || generic == nil {
		return nil, err
	}
	out := make(map[string]any, len(generic))
	for alias, cfg := range generic {
		if m, ok := cfg.(map[string]any); ok {
			out[alias] = object(m)
		} else {
			out[alias] = Mark
		}
	}
	return out, nil
}
