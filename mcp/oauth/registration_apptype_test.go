package oauth

import (
	"encoding/json"
	"testing"
)

// TestApplicationType: native only when every redirect URI is a loopback
// http(s) URL or a private-use scheme (the conformance client's
// http://localhost:3000/callback is native); anything else is web.
func TestApplicationType(t *testing.T) {
	tests := []struct {
		name string
		uris []string
		want string
	}{
		{"localhost http", []string{"http://localhost:3000/callback"}, AppTypeNative},
		{"localhost https", []string{"https://localhost/cb"}, AppTypeNative},
		{"localhost upper case", []string{"HTTP://LocalHost:8080/cb"}, AppTypeNative},
		{"a .localhost name", []string{"http://app.localhost:8080/cb"}, AppTypeNative},
		{"127.0.0.1", []string{"http://127.0.0.1:8765/cb"}, AppTypeNative},
		{"127.1.2.3", []string{"http://127.1.2.3/cb"}, AppTypeNative},
		{"[::1]", []string{"http://[::1]:8765/cb"}, AppTypeNative},
		{"private-use scheme", []string{"com.example.app:/oauth2redirect"}, AppTypeNative},
		{"loopback and private-use", []string{"http://127.0.0.1/cb", "myapp://cb"}, AppTypeNative},
		{"remote https", []string{"https://app.example/cb"}, AppTypeWeb},
		{"remote http", []string{"http://app.example/cb"}, AppTypeWeb},
		{"a name that only starts like localhost", []string{"http://localhost.example/cb"}, AppTypeWeb},
		{"a private address is not loopback", []string{"http://10.0.0.1/cb"}, AppTypeWeb},
		{"mixed", []string{"http://localhost/cb", "https://app.example/cb"}, AppTypeWeb},
		{"relative", []string{"/callback"}, AppTypeWeb},
		{"does not parse", []string{"http://[::1/cb"}, AppTypeWeb},
		{"none", nil, AppTypeWeb},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ApplicationType(tt.uris); got != tt.want {
				t.Errorf("ApplicationType(%q) = %q, want %q", tt.uris, got, tt.want)
			}
		})
	}
}

// TestRegisterApplicationType (SEP-837, every auth/* scenario that
// registers at 2026-07-28): the registration names the application type
// of the redirect URIs it sends, the configured redirect URL or the
// client metadata's own; an application_type the client metadata sets is
// sent as written.
func TestRegisterApplicationType(t *testing.T) {
	tests := []struct {
		name     string
		redirect string
		metadata string
		want     any
	}{
		{"the conformance client", "http://localhost:3000/callback", `{"client_name":"toolgate-conformance","redirect_uris":["http://localhost:3000/callback"]}`, AppTypeNative},
		{"the redirect URL", "http://127.0.0.1:8765/callback", "", AppTypeNative},
		{"a web app", "https://app.example/callback", "", AppTypeWeb},
		{"the metadata's redirect_uris decide", "http://localhost/cb", `{"redirect_uris":["https://app.example/cb"]}`, AppTypeWeb},
		{"the metadata's own type wins", "http://localhost/cb", `{"application_type":"web"}`, AppTypeWeb},
		{"even one OpenID does not define", "https://app.example/cb", `{"application_type":"desktop"}`, "desktop"},
		{"redirect_uris that are not strings", "", `{"redirect_uris":"http://localhost/cb"}`, AppTypeWeb},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			d := &dcrServer{}
			s := &Settings{RedirectURL: tt.redirect}
			if tt.metadata != "" {
				s.ClientMetadata = json.RawMessage(tt.metadata)
			}
			if _, err := register(t, h, d, 201, `{"client_id":"c"}`, []string{"none"}, s); err != nil {
				t.Fatal(err)
			}
			if got := d.body["application_type"]; got != tt.want {
				t.Errorf("sent application_type %v, want %v (body %s)", got, tt.want, d.raw)
			}
		})
	}
}
