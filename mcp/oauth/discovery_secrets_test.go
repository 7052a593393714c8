package oauth

import (
	"context"
	"strings"
	"testing"
)

// planted is a secret the flow knows before any request: no error of the
// discovery and registration steps may quote it, whatever the servers
// echo.
const planted = "Planted-Secret-7f3a9c"

// learned is a client secret the registration endpoint sends with its
// refusal: it is learned, and scrubbed, before the error is made.
const learned = "Learned-Secret-41b2e8"

// TestNoSecretInErrors: every failing step below has the servers echo a
// secret in what the error quotes (URLs, issuers, resources, OAuth error
// fields); none of the errors shows it.
func TestNoSecretInErrors(t *testing.T) {
	bad := strings.ReplaceAll(asDoc(""), `"issuer":"{base}"`, `"issuer":"https://as.example/`+planted+`"`)
	h := newHarness(t)
	srv := h.server(map[string]route{
		prmPath:                  jsonRoute(200, `{"resource":"https://evil.example/`+planted+`","authorization_servers":["x"]}`),
		"/prm/" + planted:        jsonRoute(500, `{}`),
		asPath:                   templRoute(bad),
		"/" + planted + oidcPath: templRoute(strings.ReplaceAll(asDoc("/"+planted), `"{base}/`+planted+`/authorize"`, `"javascript:`+planted+`"`)),
		"/register": jsonRoute(400, `{"error":"invalid_`+planted+`","error_description":"the secret `+learned+
			` or `+planted+` is refused","client_secret":"`+learned+`"}`),
	})
	c := h.client()
	c.Secrets.Add(planted)
	ctx := context.Background()
	var errs []error
	_, err := DiscoverResource(ctx, c, srv.URL+"/mcp", Challenge{})
	errs = append(errs, err)
	_, err = DiscoverResource(ctx, c, srv.URL+"/mcp", Challenge{ResourceMetadata: srv.URL + "/prm/" + planted})
	errs = append(errs, err)
	_, err = DiscoverResource(ctx, c, srv.URL+"/mcp", Challenge{ResourceMetadata: closedURL(t) + "/" + planted + "?token=" + planted})
	errs = append(errs, err)
	_, err = DiscoverServer(ctx, c, srv.URL)
	errs = append(errs, err)
	_, err = DiscoverServer(ctx, c, srv.URL+"/"+planted+"/")
	errs = append(errs, err)
	_, err = DiscoverServer(ctx, c, srv.URL+"/"+planted)
	errs = append(errs, err)
	_, err = DiscoverServer(ctx, c, srv.URL+"/nothing/"+planted)
	errs = append(errs, err)
	_, err = DiscoverServer(ctx, c, closedURL(t)+"/"+planted)
	errs = append(errs, err)
	_, err = LegacyServer(ctx, c, srv.URL+"/mcp")
	errs = append(errs, err)
	_, err = Register(ctx, c, &ServerMetadata{RegistrationEndpoint: srv.URL + "/register"}, &Settings{})
	errs = append(errs, err)
	_, err = Register(ctx, c, &ServerMetadata{Issuer: "https://as.example/" + planted}, &Settings{})
	errs = append(errs, err)
	_, err = Register(ctx, c, &ServerMetadata{}, &Settings{ClientMetadataURL: "http://app.example/" + planted})
	errs = append(errs, err)
	errs = append(errs, redirectErrors(c)...)
	for i, err := range errs {
		e := asError(t, err, "")
		for _, s := range []string{e.Error(), e.OAuthError, e.ErrorDescription} {
			if strings.Contains(s, planted) || strings.Contains(s, learned) {
				t.Errorf("error %d quotes a secret: %q", i, s)
			}
		}
	}
}

// redirectErrors are the refusals of authorization responses that echo
// the planted secret in their iss, code, error and description, to an
// authorization server whose issuer holds it too.
func redirectErrors(c *Client) []error {
	meta := &ServerMetadata{Issuer: "https://as.example/" + planted, AuthorizationResponseIssParameterSupported: true}
	pend := &Pending{meta: meta, state: "s", verifier: "v"}
	var errs []error
	for _, r := range []Redirect{
		{Code: planted, State: "s", Iss: "https://evil.example/" + planted, HasIss: true},
		{Code: planted, State: "s"},
		{Error: "invalid_" + planted, ErrorDescription: "no " + planted, Iss: "https://evil.example/" + planted, HasIss: true},
		{Error: "invalid_" + planted, ErrorDescription: "no " + planted + " " + learned, Iss: meta.Issuer, HasIss: true},
		{Code: planted, State: planted, Iss: meta.Issuer, HasIss: true},
	} {
		_, err := Finish(context.Background(), c, pend, &r)
		errs = append(errs, err)
	}
	_, err := ParseRedirect("http://[::1/cb?code=" + planted)
	return append(errs, err)
}
