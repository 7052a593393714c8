package oauth

import (
	"context"
	"errors"
	"strings"
	"testing"
)

const (
	prmPath     = "/.well-known/oauth-protected-resource/mcp"
	prmRootPath = "/.well-known/oauth-protected-resource"
	prmMCP      = `{"resource":"{base}/mcp","authorization_servers":["https://as.example"]}`
)

// TestDiscoverResourceOrder: the conformance scenarios' PRM locations
// (auth/metadata-default, metadata-var1..3), each found with exactly the
// requests the spec's order gives and nothing after.
func TestDiscoverResourceOrder(t *testing.T) {
	tests := []struct {
		name     string
		routes   map[string]route
		header   string // resource_metadata path, "" for none
		wantReqs []string
		wantRes  string
	}{
		{"metadata-default: the header's URL, not the root",
			map[string]route{prmPath: templRoute(prmMCP), prmRootPath: jsonRoute(500, `{}`)},
			prmPath, []string{prmPath}, "/mcp"},
		{"metadata-var1: no header, the path-aware URL",
			map[string]route{prmPath: templRoute(prmMCP)},
			"", []string{prmPath}, "/mcp"},
		{"metadata-var2: no header, path-aware 404, then the root",
			map[string]route{prmRootPath: templRoute(`{"resource":"{base}","authorization_servers":["https://as.example"]}`)},
			"", []string{prmPath, prmRootPath}, ""},
		{"metadata-var3: the header's custom URL",
			map[string]route{"/custom/metadata/location.json": templRoute(prmMCP)},
			"/custom/metadata/location.json", []string{"/custom/metadata/location.json"}, "/mcp"},
		{"the header's URL 404: the well-known URLs next",
			map[string]route{prmRootPath: templRoute(prmMCP)},
			"/gone.json", []string{"/gone.json", prmPath, prmRootPath}, "/mcp"},
		{"the header names the path-aware URL: asked once",
			map[string]route{prmRootPath: templRoute(prmMCP)},
			prmPath, []string{prmPath, prmRootPath}, "/mcp"},
		{"a redirect is not followed: next URL",
			map[string]route{prmPath: redirectRoute("/elsewhere"), prmRootPath: templRoute(prmMCP)},
			"", []string{prmPath, prmRootPath}, "/mcp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			srv := h.server(tt.routes)
			ch := Challenge{Scheme: "Bearer"}
			if tt.header != "" {
				ch.ResourceMetadata = srv.URL + tt.header
			}
			prm, err := DiscoverResource(context.Background(), h.client(), srv.URL+"/mcp", ch)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range tt.wantReqs {
				want = append(want, srv.URL+p)
			}
			h.wantReqs(want...)
			if prm.Resource != srv.URL+tt.wantRes || prm.URL != want[len(want)-1] || prm.AuthorizationServers[0] != "https://as.example" {
				t.Errorf("got %+v", prm)
			}
		})
	}
}

// TestDiscoverResourceNone: a server without resource metadata gives nil,
// nil after both well-known URLs (the 2025-03-26 fallback); a server at
// the root tries the root URL only.
func TestDiscoverResourceNone(t *testing.T) {
	h := newHarness(t)
	srv := h.server(nil)
	prm, err := DiscoverResource(context.Background(), h.client(), srv.URL+"/mcp/", Challenge{})
	if prm != nil || err != nil {
		t.Fatalf("got %+v, %v; want nil, nil", prm, err)
	}
	h.wantReqs(srv.URL+prmPath, srv.URL+prmRootPath)

	h2 := newHarness(t)
	srv2 := h2.server(nil)
	if prm, err := DiscoverResource(context.Background(), h2.client(), srv2.URL+"/", Challenge{}); prm != nil || err != nil {
		t.Fatalf("root server: got %+v, %v", prm, err)
	}
	h2.wantReqs(srv2.URL + prmRootPath)
}

// TestDiscoverResourceMismatch (auth/resource-mismatch): a document whose
// resource is another origin's is refused, so no authorization follows.
func TestDiscoverResourceMismatch(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{prmPath: jsonRoute(200,
		`{"resource":"https://evil.example.com/mcp","authorization_servers":["https://as.example"]}`)})
	prm, err := DiscoverResource(context.Background(), h.client(), srv.URL+"/mcp", Challenge{})
	if prm != nil {
		t.Fatalf("got %+v", prm)
	}
	e := asError(t, err, StepDiscovery)
	if !strings.Contains(e.Message, "https://evil.example.com/mcp") || !strings.Contains(e.Message, "not the MCP server") {
		t.Errorf("message %q", e.Message)
	}
	h.wantReqs(srv.URL + prmPath) // refused at once, the root not tried
}

// TestDiscoverResourcePolicy: a URL the policy refuses is never
// requested, and stops discovery with the policy's error unchanged.
func TestDiscoverResourcePolicy(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{prmRootPath: templRoute(prmMCP)})
	h.deny = func(u string) bool { return strings.Contains(u, "/custom") }
	_, err := DiscoverResource(context.Background(), h.client(), srv.URL+"/mcp", Challenge{ResourceMetadata: srv.URL + "/custom.json"})
	if !errors.Is(err, errDenied) {
		t.Fatalf("err = %v, want the policy's error", err)
	}
	h.wantReqs()

	h2 := newHarness(t)
	h2.deny = func(string) bool { return true }
	_, err = DiscoverResource(context.Background(), h2.client(), "https://mcp.example/mcp", Challenge{})
	if !errors.Is(err, errDenied) || len(h2.checked) != 1 {
		t.Fatalf("err = %v after checking %q", err, h2.checked)
	}
}

// TestDiscoverResourceUnreachable: a location that cannot be reached
// moves on to the next; when nothing else is found its error is returned
// (no silent 2025-03-26 fallback on a network failure).
func TestDiscoverResourceUnreachable(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{prmPath: templRoute(prmMCP)})
	dead := closedURL(t) + "/prm.json"
	prm, err := DiscoverResource(context.Background(), h.client(), srv.URL+"/mcp", Challenge{ResourceMetadata: dead})
	if err != nil || prm == nil {
		t.Fatalf("got %+v, %v", prm, err)
	}
	if h.checked[0] != dead {
		t.Errorf("checked %q", h.checked)
	}

	h2 := newHarness(t)
	dead2 := closedURL(t)
	_, err = DiscoverResource(context.Background(), h2.client(), dead2+"/mcp", Challenge{})
	asError(t, err, StepDiscovery)
	if len(h2.checked) != 2 {
		t.Errorf("checked %q, want both well-known URLs", h2.checked)
	}

	// An answer over MaxBody counts as unreadable, like a failed request.
	h3 := newHarness(t)
	srv3 := h3.server(map[string]route{prmPath: jsonRoute(200, `{"resource":"`+strings.Repeat("a", MaxBody)+`"}`)})
	_, err = DiscoverResource(context.Background(), h3.client(), srv3.URL+"/mcp", Challenge{})
	if e := asError(t, err, StepDiscovery); !strings.Contains(e.Message, "1 MiB") {
		t.Errorf("message %q", e.Message)
	}
	h3.wantReqs(srv3.URL+prmPath, srv3.URL+prmRootPath)
}

// TestDiscoverResourceMalformed: documents the flow cannot use are
// *Errors of StepDiscovery naming the location.
func TestDiscoverResourceMalformed(t *testing.T) {
	for name, r := range map[string]route{
		"not JSON":                jsonRoute(200, `<html>`),
		"a JSON array":            jsonRoute(200, `[]`),
		"JSON null":               jsonRoute(200, `null`),
		"wrong types":             jsonRoute(200, `{"resource":1,"authorization_servers":"x"}`),
		"no resource":             jsonRoute(200, `{"authorization_servers":["https://as.example"]}`),
		"no authorization server": templRoute(`{"resource":"{base}/mcp","authorization_servers":[]}`),
		"an empty server":         templRoute(`{"resource":"{base}/mcp","authorization_servers":[""]}`),
		"HTTP 500":                jsonRoute(500, prmMCP),
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			srv := h.server(map[string]route{prmPath: r, prmRootPath: templRoute(prmMCP)})
			prm, err := DiscoverResource(context.Background(), h.client(), srv.URL+"/mcp", Challenge{})
			if prm != nil {
				t.Fatalf("got %+v", prm)
			}
			asError(t, err, StepDiscovery)
			h.wantReqs(srv.URL + prmPath)
		})
	}
	h := newHarness(t)
	_, err := DiscoverResource(context.Background(), h.client(), "ftp://mcp.example/mcp", Challenge{})
	asError(t, err, StepDiscovery)
	if len(h.checked) != 0 {
		t.Errorf("checked %q for a refused server URL", h.checked)
	}
}

func TestCheckResource(t *testing.T) {
	tests := []struct {
		resource, server string
		ok               bool
	}{
		{"https://mcp.example/mcp", "https://mcp.example/mcp", true},
		{"https://mcp.example", "https://mcp.example/mcp", true},
		{"https://mcp.example/", "https://mcp.example/mcp", true},
		{"https://mcp.example/api", "https://mcp.example/api/mcp", true},
		{"https://mcp.example/mcp/", "https://mcp.example/mcp", true},
		{"https://mcp.example/mcp", "https://mcp.example/mcp/", true},
		{"HTTPS://MCP.Example/mcp", "https://mcp.example/mcp", true},
		{"https://mcp.example:443/mcp", "https://mcp.example/mcp", true},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp", true},
		{"https://mcp.example/mcp", "https://mcp.example/mcp?x=1", true},
		{"https://mcp.example/mcp?x=1", "https://mcp.example/mcp?x=1", true},
		{"https://mcp.example/mcp", "https://mcp.example/mcp#frag", true},
		{"https://evil.example.com/mcp", "https://mcp.example/mcp", false},
		{"http://mcp.example/mcp", "https://mcp.example/mcp", false},
		{"https://mcp.example:8443/mcp", "https://mcp.example/mcp", false},
		{"https://mcp.example.evil/mcp", "https://mcp.example/mcp", false},
		{"https://sub.mcp.example/mcp", "https://mcp.example/mcp", false},
		{"https://mcp.example/api", "https://mcp.example/api2/mcp", false},
		{"https://mcp.example/mcp/tools", "https://mcp.example/mcp", false},
		{"https://mcp.example/other", "https://mcp.example/mcp", false},
		{"https://mcp.example/mcp#frag", "https://mcp.example/mcp", false},
		{"https://mcp.example/mcp?x=2", "https://mcp.example/mcp?x=1", false},
		{"https://user@mcp.example/mcp", "https://mcp.example/mcp", false},
		{"mcp.example/mcp", "https://mcp.example/mcp", false},
		{"", "https://mcp.example/mcp", false},
		{"https://mcp.example/mcp", "not a url", false},
	}
	for _, tt := range tests {
		err := CheckResource(&ResourceMetadata{Resource: tt.resource}, tt.server)
		if (err == nil) != tt.ok {
			t.Errorf("CheckResource(%q, %q) = %v, want ok %v", tt.resource, tt.server, err, tt.ok)
		}
		if err != nil {
			asError(t, err, StepDiscovery)
		}
	}
	asError(t, CheckResource(nil, "https://mcp.example/mcp"), StepDiscovery)
}

func TestResourceFor(t *testing.T) {
	tests := []struct {
		prm    *ResourceMetadata
		server string
		want   string
	}{
		{&ResourceMetadata{Resource: "https://mcp.example/mcp"}, "https://mcp.example/mcp", "https://mcp.example/mcp"},
		{&ResourceMetadata{Resource: "https://mcp.example"}, "https://mcp.example/mcp", "https://mcp.example"},
		{nil, "https://mcp.example/mcp", "https://mcp.example/mcp"},
		{nil, "HTTPS://MCP.EXAMPLE:443/Mcp?key=secret#frag", "https://mcp.example/Mcp"},
		{nil, "https://mcp.example/", "https://mcp.example"},
		{nil, "http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{&ResourceMetadata{}, "https://mcp.example:8443/a/b/", "https://mcp.example:8443/a/b/"},
		{nil, "not a url", ""},
	}
	for _, tt := range tests {
		if got := ResourceFor(tt.prm, tt.server); got != tt.want {
			t.Errorf("ResourceFor(%+v, %q) = %q, want %q", tt.prm, tt.server, got, tt.want)
		}
	}
}
