package mcp

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolgate/toolgate/core"
)

// The fuzz targets feed what a server or a config file controls to the
// code that reads it: none may panic, every refusal is a *core.Error, and
// every registered name is provider-safe.

func FuzzUntrustedToolsList(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"x"}`))
	f.Add([]byte(`{"tools":[{"name":"a.b","description":null,"inputSchema":{"type":"object","properties":{"p":{"$ref":"file:///etc/passwd"}}}}]}`))
	f.Add([]byte(`{"tools":[1,{"name":""}]}`))
	cfg := &ServerConfig{Name: "fuzz"}
	f.Fuzz(func(t *testing.T, raw []byte) {
		tools, _, err := parsePage(cfg, raw, &pacer{})
		if err != nil {
			mustBeCoreError(t, err)
			return
		}
		descs, warnings, err := validateDescriptors(cfg, tools, nil, true, nil)
		if err != nil {
			mustBeCoreError(t, err)
			return
		}
		for _, w := range warnings {
			header := w.Code == core.CodeInvalidTool && w.Rule == RuleMCPHeader
			if !header && w.Code != core.CodeInvalidSchema || w.Tool == "" {
				t.Fatalf("got the warning %v, want invalid-schema, or invalid-tool with rule %s, naming the tool", w, RuleMCPHeader)
			}
		}
		for _, d := range descs {
			if d.filtered {
				continue // left out: never built
			}
			if n := registeredName("fuzz", d.wire, true); !validRegisteredName(n) {
				t.Fatalf("got the registered name %q for %q", n, d.wire)
			}
			if !json.Valid(discoveredSchema("x", d)) {
				t.Fatalf("got an invalid schema for %q", d.wire)
			}
		}
	})
}

func FuzzUntrustedCallResult(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"hi"}]}`))
	f.Add([]byte(`{"content":[{"type":"image","data":"x"}],"isError":true}`))
	f.Add([]byte(`{"content":null}`))
	f.Add([]byte(`{"content":[],"structuredContent":{"count":-1},"_meta":{"a":[1e999]}}`))
	cfg := &ServerConfig{Name: "fuzz"}
	output, err := core.CompileSchema("t", json.RawMessage(countSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if _, err := unwrapResult(cfg, "t", "t", raw); err != nil {
			mustBeCoreError(t, err)
		}
		if _, err := readResult(cfg, "t", "t", raw, ResultFull, output); err != nil {
			mustBeCoreError(t, err)
		}
	})
}

func FuzzUntrustedConfig(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"url":"https://a.example/"},"b":{"command":"x"}}}`))
	f.Add([]byte(`{"mcpServers":{"a":{},"a":{}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		cfgs, err := LoadConfig(raw)
		if err != nil {
			mustBeCoreError(t, err)
			return
		}
		for _, c := range cfgs {
			if _, err := ValidateServerConfig(c.Name, c.Raw); err != nil {
				mustBeCoreError(t, err)
			}
		}
	})
}

func FuzzRegisteredName(f *testing.F) {
	f.Add("docs", "search", true)
	f.Add("é", "a.b", false)
	f.Fuzz(func(t *testing.T, server, tool string, qualify bool) {
		if n := registeredName(server, tool, qualify); !validRegisteredName(n) {
			t.Fatalf("got %q for (%q, %q, %v)", n, server, tool, qualify)
		}
	})
}

// mustBeCoreError fails unless err is a *core.Error with a known code.
func mustBeCoreError(t *testing.T, err error) {
	t.Helper()
	var ce *core.Error
	if !errors.As(err, &ce) || !ce.Code.Valid() {
		t.Fatalf("got %T %v, want a *core.Error", err, err)
	}
}
