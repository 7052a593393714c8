package oauth

import (
	"context"
	"strings"
	"testing"
)

// discovered is what the discovery and registration steps give the flow.
type discovered struct {
	prm      *ResourceMetadata
	meta     *ServerMetadata
	client   *ClientInfo
	scope    string
	resource string
}

// discoverAll chains the steps as the flow does: resource metadata, then
// its first authorization server (or the 2025-03-26 way without it),
// registration, scope and resource.
func discoverAll(c *Client, serverURL string, ch Challenge, s *Settings) (*discovered, error) {
	ctx := context.Background()
	d := &discovered{}
	var err error
	if d.prm, err = DiscoverResource(ctx, c, serverURL, ch); err != nil {
		return nil, err
	}
	if d.prm == nil {
		d.meta, err = LegacyServer(ctx, c, serverURL)
	} else {
		d.meta, err = DiscoverServer(ctx, c, d.prm.AuthorizationServers[0])
	}
	if err != nil {
		return nil, err
	}
	if d.client, err = Register(ctx, c, d.meta, s); err != nil {
		return nil, err
	}
	d.scope = ChooseScope(ch, d.prm, d.meta, s.Scope)
	d.resource = ResourceFor(d.prm, serverURL)
	return d, nil
}

// TestConformanceDiscovery replays the discovery of the conformance
// scenarios auth/metadata-default, metadata-var1..3 and the two 2025-03-26
// ones against servers laid out as theirs are: the requests, in order
// across the MCP server and the authorization server, are exactly the
// ones each scenario expects (and none of its traps).
func TestConformanceDiscovery(t *testing.T) {
	tests := []struct {
		name     string
		prmAt    string // on the MCP server ("": none)
		header   bool   // resource_metadata in the challenge
		prefix   string // the authorization server's route prefix
		asAt     string // its metadata location
		wantReqs []string
	}{
		{"metadata-default", prmPath, true, "", asPath,
			[]string{"mcp" + prmPath, "as" + asPath, "as/register"}},
		{"metadata-var1", prmPath, false, "", oidcPath,
			[]string{"mcp" + prmPath, "as" + asPath, "as" + oidcPath, "as/register"}},
		{"metadata-var2", prmRootPath, false, "/tenant1", asPath + "/tenant1",
			[]string{"mcp" + prmPath, "mcp" + prmRootPath, "as" + asPath + "/tenant1", "as/tenant1/register"}},
		{"metadata-var3", "/custom/metadata/location.json", true, "/tenant1", "/tenant1" + oidcPath,
			[]string{"mcp/custom/metadata/location.json", "as" + asPath + "/tenant1", "as" + oidcPath + "/tenant1", "as/tenant1" + oidcPath, "as/tenant1/register"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			d := &dcrServer{}
			as := h.server(map[string]route{tt.asAt: templRoute(asDoc(tt.prefix)), tt.prefix + "/register": d.route(201, `{"client_id":"test-client-id","client_secret":"test-client-secret"}`)})
			prm := `{"resource":"{base}/mcp","authorization_servers":["` + as.URL + tt.prefix + `"],"scopes_supported":["mcp:basic"]}`
			if tt.prmAt == prmRootPath {
				prm = strings.Replace(prm, "{base}/mcp", "{base}", 1)
			}
			mcp := h.server(map[string]route{tt.prmAt: templRoute(prm)})
			ch := Challenge{Scheme: "Bearer", Error: "invalid_token"}
			if tt.header {
				ch.ResourceMetadata = mcp.URL + tt.prmAt
			}
			got, err := discoverAll(h.client(), mcp.URL+"/mcp", ch, &Settings{RedirectURL: "http://localhost:3000/callback"})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range tt.wantReqs {
				want = append(want, strings.NewReplacer("mcp/", mcp.URL+"/", "as/", as.URL+"/").Replace(r))
			}
			h.wantReqs(want...)
			if got.client.ClientID != "test-client-id" || got.scope != "mcp:basic offline_access" || got.resource != got.prm.Resource {
				t.Errorf("got %+v, client %+v", got, got.client)
			}
			if d.body["redirect_uris"] == nil {
				t.Errorf("registered %v", d.body)
			}
		})
	}
}

// TestConformanceLegacy: auth/2025-03-26-oauth-metadata-backcompat (the
// MCP server is the authorization server, its metadata at the root, its
// endpoints under /oauth) and auth/2025-03-26-oauth-endpoint-fallback (no
// metadata at all: /register at the root).
func TestConformanceLegacy(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{asPath: templRoute(asDoc("/oauth")), "/oauth/register": (&dcrServer{}).route(201, `{"client_id":"c1"}`)})
	got, err := discoverAll(h.client(), srv.URL+"/mcp", Challenge{Scheme: "Bearer"}, &Settings{RedirectURL: "http://localhost:3000/callback"})
	if err != nil {
		t.Fatal(err)
	}
	h.wantReqs(srv.URL+prmPath, srv.URL+prmRootPath, srv.URL+asPath, srv.URL+"/oauth/register")
	if got.meta.Fallback || got.client.ClientID != "c1" || got.resource != srv.URL+"/mcp" || got.scope != "" {
		t.Errorf("got %+v", got)
	}

	h2 := newHarness(t)
	srv2 := h2.server(map[string]route{"/register": (&dcrServer{}).route(201, `{"client_id":"c2","client_secret":"test-client-secret"}`)})
	got, err = discoverAll(h2.client(), srv2.URL+"/mcp", Challenge{Scheme: "Bearer"}, &Settings{RedirectURL: "http://localhost:3000/callback"})
	if err != nil {
		t.Fatal(err)
	}
	h2.wantReqs(srv2.URL+prmPath, srv2.URL+prmRootPath, srv2.URL+asPath, srv2.URL+"/register")
	if !got.meta.Fallback || got.client.ClientID != "c2" || got.meta.AuthorizationEndpoint != srv2.URL+"/authorize" || got.scope != "" {
		t.Errorf("got %+v", got)
	}
}
