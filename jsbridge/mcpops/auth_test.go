package mcpops

import (
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/core"
)

// The auth option is the package's provider object: its data becomes the
// flow's Settings, its dispatcher's id the pool identity; anything else is
// unsupported-type naming the option.
func TestAuthOption(t *testing.T) {
	a, err := authOption("registerMcpServer", json.RawMessage(`{"fn":7,"redirectUrl":"http://localhost/cb","clientId":"pre","clientSecret":"s","scope":"read",
		"clientCredentials":{"clientId":"svc","privateKey":"PEM","algorithm":"RS256"}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := a.Settings
	if a.ID != "js:7" || s.RedirectURL != "http://localhost/cb" || s.Client.ClientID != "pre" || s.Scope != "read" ||
		s.ClientCredentials.PrivateKeyPEM != "PEM" || s.ClientCredentials.Algorithm != "RS256" {
		t.Fatalf("auth = %+v", a)
	}
	if s.DPoP != "" || s.DPoPSigner == nil {
		t.Fatalf("dpop %q, signer %v: want the default mode and the host's signer", s.DPoP, s.DPoPSigner)
	}
	if d, err := authOption("registerMcpServer", json.RawMessage(`{"fn":7,"dpop":"require"}`)); err != nil || d.Settings.DPoP != "require" {
		t.Fatalf("dpop require: %+v, %v", d, err)
	}
	for _, bad := range []string{`"x"`, `{"fn":0}`, `[]`, `{"fn":"1"}`, `{"fn":7,"dpop":"sometimes"}`} {
		if _, err := authOption("registerMcpServer", json.RawMessage(bad)); core.AsError(err) == nil || core.AsError(err).Code != core.CodeUnsupportedType {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
	m, err := authMapOption("loadMcpConfig", json.RawMessage(`{"*":{"fn":3},"docs":{"fn":4}}`))
	if err != nil || m["*"].ID != "js:3" || m["docs"].ID != "js:4" {
		t.Fatalf("map = %v, %v", m, err)
	}
}
