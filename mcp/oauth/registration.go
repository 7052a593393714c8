package oauth

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/toolgate/toolgate/internal/wire"
)

// Register returns the client's registration at the authorization server
// of meta, in the spec's order of preference:
//
//  1. s.Client, pre-registered (its secret added to c.Secrets);
//  2. s.ClientMetadataURL as client_id (a Client ID Metadata Document,
//     public: token_endpoint_auth_method "none") when meta says
//     client_id_metadata_document_supported;
//  3. dynamic registration (RFC 7591) at meta.RegistrationEndpoint: the
//     client metadata s.ClientMetadata (a JSON object) POSTed as JSON, with
//     what it leaves out filled in (see registrationRequest); the client
//     secret and registration access token the server returns are added
//     to c.Secrets before anything else is done with the answer.
//
// It refuses (StepRegistration) a ClientMetadataURL that is not https with
// a path, ClientMetadata that is not a JSON object, an authorization server
// with no way left to register, an answer without client_id, and a refused
// registration, with the server's OAuth error and error_description.
func Register(ctx context.Context, c *Client, meta *ServerMetadata, s *Settings) (*ClientInfo, error) {
	if s == nil {
		s = &Settings{}
	}
	if s.Client != nil && s.Client.ClientID != "" {
		c.Secrets.Add(s.Client.ClientSecret)
		ci := *s.Client
		return &ci, nil
	}
	if s.ClientMetadataURL != "" {
		if u, err := url.Parse(s.ClientMetadataURL); err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" || u.Fragment != "" {
			return nil, c.Secrets.errorf(StepRegistration, "", "", "the client metadata URL %s is not an https URL with a path", redactURL(s.ClientMetadataURL))
		}
	}
	if meta == nil {
		return nil, &Error{Step: StepRegistration, Message: "no authorization server metadata to register with"}
	}
	if s.ClientMetadataURL != "" && meta.ClientIDMetadataDocumentSupported {
		return &ClientInfo{ClientID: s.ClientMetadataURL, TokenEndpointAuthMethod: "none"}, nil
	}
	if meta.RegistrationEndpoint == "" {
		return nil, c.Secrets.errorf(StepRegistration, "", "",
			"the authorization server %s offers no registration (no registration_endpoint%s): configure a pre-registered client id",
			redactURL(meta.Issuer), cimdHint(meta, s))
	}
	return registerDynamic(ctx, c, meta, s)
}

// cimdHint says why a client metadata document was not used.
func cimdHint(meta *ServerMetadata, s *Settings) string {
	if !meta.ClientIDMetadataDocumentSupported {
		return ", no client_id_metadata_document_supported"
	}
	if s.ClientMetadataURL == "" {
		return ", and no client metadata URL configured"
	}
	return ""
}

// registerDynamic is RFC 7591 registration at meta.RegistrationEndpoint.
func registerDynamic(ctx context.Context, c *Client, meta *ServerMetadata, s *Settings) (*ClientInfo, error) {
	body, asked, err := registrationRequest(meta, s)
	if err != nil {
		return nil, err
	}
	h := wire.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	resp, err := c.Send(ctx, StepRegistration, wire.MethodPost, meta.RegistrationEndpoint, h, body)
	if err != nil {
		return nil, err
	}
	var ans struct {
		ClientInfo
		RegistrationAccessToken string `json:"registration_access_token"`
		Error                   string `json:"error"`
		ErrorDescription        string `json:"error_description"`
	}
	jerr := json.Unmarshal(resp.Body, &ans)
	c.Secrets.Add(ans.ClientSecret, ans.RegistrationAccessToken)
	where := redactURL(meta.RegistrationEndpoint)
	if resp.Status != 200 && resp.Status != 201 {
		return nil, c.Secrets.errorf(StepRegistration, ans.Error, ans.ErrorDescription,
			"the authorization server refused the registration: HTTP %d%s (%s)", resp.Status, oauthSuffix(ans.Error, ans.ErrorDescription), where)
	}
	if jerr != nil || !isJSONObject(resp.Body) || ans.ClientID == "" {
		return nil, c.Secrets.errorf(StepRegistration, "", "", "the registration answer is not client information with a client_id (%s)", where)
	}
	ci := ans.ClientInfo
	ci.Raw = append(json.RawMessage(nil), resp.Body...)
	if ci.TokenEndpointAuthMethod == "" && (asked == "none") == (ci.ClientSecret == "") {
		ci.TokenEndpointAuthMethod = asked
	}
	return &ci, nil
}

// oauthSuffix is ": error (description)" for a message, or "".
func oauthSuffix(code, desc string) string {
	switch {
	case code == "":
		return ""
	case desc == "":
		return ": " + cut(code, 100)
	}
	return ": " + cut(code, 100) + " (" + cut(desc, 300) + ")"
}
