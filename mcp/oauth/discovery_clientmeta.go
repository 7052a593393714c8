package oauth

import "encoding/json"

// registrationRequest is the client metadata dynamic registration sends:
// s.ClientMetadata as given, every member kept as it was written, with
// what it leaves out filled in:
//
//   - redirect_uris: [s.RedirectURL];
//   - grant_types: ["authorization_code", "refresh_token"] and
//     response_types: ["code"], when there is a RedirectURL (the code
//     grant, whose client wants refresh tokens: SEP-2207);
//   - client_name: "toolgate";
//   - application_type: ApplicationType of the redirect_uris sent
//     ("native" for loopback and private-use scheme redirects, else
//     "web"; MCP 2026-07-28 asks every registration to name it);
//   - token_endpoint_auth_method: the first of "none" (a public client:
//     nothing secret to keep), "client_secret_basic", "client_secret_post"
//     that meta lists in token_endpoint_auth_methods_supported; left out
//     (the server's default) when meta lists none of them.
//
// asked is the token_endpoint_auth_method sent ("" when none was).
func registrationRequest(meta *ServerMetadata, s *Settings) (body []byte, asked string, err error) {
	m := map[string]json.RawMessage{}
	if len(s.ClientMetadata) > 0 {
		if err := json.Unmarshal(s.ClientMetadata, &m); err != nil || m == nil || !isJSONObject(s.ClientMetadata) {
			return nil, "", &Error{Step: StepRegistration, Message: "the client metadata is not a JSON object"}
		}
	}
	if s.RedirectURL != "" {
		setDefault(m, "redirect_uris", []string{s.RedirectURL})
		setDefault(m, "grant_types", []string{"authorization_code", "refresh_token"})
		setDefault(m, "response_types", []string{"code"})
	}
	setDefault(m, "client_name", "toolgate")
	if _, ok := m["application_type"]; !ok {
		var uris []string
		_ = json.Unmarshal(m["redirect_uris"], &uris) // not a list of strings: no URI, so "web"
		setDefault(m, "application_type", ApplicationType(uris))
	}
	if method := publicFirst(meta.TokenEndpointAuthMethodsSupported); method != "" {
		setDefault(m, "token_endpoint_auth_method", method)
	}
	if raw, ok := m["token_endpoint_auth_method"]; ok {
		_ = json.Unmarshal(raw, &asked) // not a string: asked stays ""
	}
	body, err = json.Marshal(m)
	if err != nil {
		return nil, "", &Error{Step: StepRegistration, Message: "the client metadata cannot be encoded"}
	}
	return body, asked, nil
}

// setDefault sets m[key] to v's JSON when m has no such member.
func setDefault(m map[string]json.RawMessage, key string, v any) {
	if _, ok := m[key]; ok {
		return
	}
	if raw, err := json.Marshal(v); err == nil {
		m[key] = raw
	}
}

// publicFirst is the token endpoint authentication method to register
// with, among those the server supports: "none" first, then the two
// client secret methods; "" when none of them is listed.
func publicFirst(supported []string) string {
	for _, want := range []string{"none", "client_secret_basic", "client_secret_post"} {
		if contains(supported, want) {
			return want
		}
	}
	return ""
}
