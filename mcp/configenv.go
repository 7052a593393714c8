package mcp

import (
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/redact"
)

// The rules of a config's ${…} references (the Rule of the invalid-tool
// error that refuses the whole load: expandConfig).
const (
	// RuleUnsetVariable: a ${NAME} (or ${env:NAME}) without a default names
	// a variable the environment given does not set.
	RuleUnsetVariable = "unset-variable"
	// RuleInputVariable: a ${input:ID} (VS Code asks the user for it, from
	// the config's "inputs"); toolgate prompts no one.
	RuleInputVariable = "input-variable"
	// RuleVariableSyntax: a "${" that starts no reference toolgate reads:
	// no closing brace, or not a NAME of [A-Za-z_][A-Za-z0-9_]*.
	RuleVariableSyntax = "variable-syntax"
)

// ToolRules are the rules a server's config, its tool definitions or a
// call of its tools can break (an error's or a warning's Rule); the JS
// package's McpToolRule type is generated from it (cmd/gen-contract).
var ToolRules = []string{RuleMCPHeader, RuleTaskRequired, RuleUnsetVariable, RuleInputVariable, RuleVariableSyntax,
	RuleTaskTime, RuleTaskPolls, RuleTaskInputRounds, RuleTaskMalformed, RuleTaskCancelled, RuleTaskFailed}

// expandConfig replaces each reference in cfg's URL and header values with
// its value from env, as Claude Code, Cursor and VS Code expand their
// mcp.json files: ${NAME} and ${env:NAME} are the variable NAME,
// ${NAME:-default} (also ${env:NAME:-default}) the default when NAME is
// unset or empty. The values expanded into the URL become secrets of cfg
// (redacted from every message), and the URL as configured is what
// records show (Redacted). Nothing is expanded anywhere else.
//
// It refuses, with invalid-tool naming the server, the header (or the
// url) and the variable, never a value: RuleUnsetVariable, a variable env
// does not set (nil env sets none); RuleInputVariable, ${input:ID};
// RuleVariableSyntax, a "${" without a closing brace or a NAME; and a
// header value that holds a control character once expanded.
func expandConfig(cfg *ServerConfig, env map[string]string) error {
	var expanded []string
	url, err := expandText(cfg.Name, "the url", cfg.URL, env, &expanded)
	if err != nil {
		return err
	}
	if url != cfg.URL {
		cfg.configuredURL, cfg.URL = cfg.URL, url
		cfg.expanded = expanded
	}
	for k, v := range cfg.Headers {
		out, err := expandText(cfg.Name, "header "+strconv.QuoteToASCII(k), v, env, nil)
		if err != nil {
			return err
		}
		if hasControl(out) {
			return configError(cfg.Name, "the value of header %s contains a control character once its variables are expanded", strconv.QuoteToASCII(k))
		}
		cfg.Headers[k] = out
	}
	return nil
}

// expandText expands the references of s (where names the member, for
// messages), appending each value it puts in to values when not nil.
func expandText(server, where, s string, env map[string]string, values *[]string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	refuse := func(rule, format string, args ...any) error {
		e := configError(server, "%s: "+format, append([]any{where}, args...)...)
		e.Rule = rule
		return e
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", refuse(RuleVariableSyntax, "a \"${\" has no closing \"}\"")
		}
		ref := s[i+2 : i+end]
		s = s[i+end+1:]
		if strings.HasPrefix(ref, "input:") {
			return "", refuse(RuleInputVariable, "${input:%s} asks the user for a value (VS Code's \"inputs\"), which toolgate cannot do: put the value in the environment and write ${env:NAME}",
				truncate(strings.TrimPrefix(ref, "input:"), 40))
		}
		ref = strings.TrimPrefix(ref, "env:")
		name, def, hasDefault := strings.Cut(ref, ":-")
		if !isVariableName(name) {
			return "", refuse(RuleVariableSyntax, "${%s} is not a variable reference: write ${NAME}, ${env:NAME} or ${NAME:-default}, NAME of letters, digits and _",
				strconv.QuoteToASCII(truncate(name, 40)))
		}
		v, set := env[name]
		switch {
		case hasDefault && v == "":
			v = def
		case !set:
			return "", refuse(RuleUnsetVariable, "${%s} is not set in the environment given (option env; in Node process.env by default, in a browser none)", name)
		}
		if values != nil && v != "" {
			*values = append(*values, v)
		}
		b.WriteString(v)
	}
}

// isVariableName reports whether s is an environment variable name:
// [A-Za-z_][A-Za-z0-9_]*.
func isVariableName(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// recordURL is the URL a record shows: the one configured (its references
// unexpanded) when variables were expanded into it, redacted.
func (c *ServerConfig) recordURL() string {
	if c.configuredURL != "" {
		return redact.URL(c.configuredURL)
	}
	return redact.URL(c.URL)
}
