package mcpops

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/mcp"
	"github.com/toolgate/toolgate/mcp/oauth"
)

// authJSON is the auth option as npm/lib/mcp-auth.js sends it: the
// provider's data, and fn, the host function id of the provider's
// dispatcher (its functions, memory storage for those it lacks).
type authJSON struct {
	Fn                int64           `json:"fn"`
	RedirectURL       string          `json:"redirectUrl"`
	ClientMetadata    json.RawMessage `json:"clientMetadata"`
	ClientMetadataURL string          `json:"clientMetadataUrl"`
	ClientID          string          `json:"clientId"`
	ClientSecret      string          `json:"clientSecret"`
	ClientIssuer      string          `json:"clientIssuer"`
	Scope             string          `json:"scope"`
	DPoP              string          `json:"dpop"` // "auto", "require", "off" (mcp-auth.js maps true and false)
	ClientCredentials *struct {
		ClientID     string `json:"clientId"`
		ClientSecret string `json:"clientSecret"`
		PrivateKey   string `json:"privateKey"`
		Algorithm    string `json:"algorithm"`
		// Signer: the key stayed in JS, whose "sign" op signs the assertion.
		Signer bool `json:"signer"`
	} `json:"clientCredentials"`
	CrossApp *struct {
		IDPTokenEndpoint string `json:"idpTokenEndpoint"`
		IDToken          string `json:"idToken"`
		IDPClientID      string `json:"idpClientId"`
		IDPClientSecret  string `json:"idpClientSecret"`
		ClientID         string `json:"clientId"`
		ClientSecret     string `json:"clientSecret"`
	} `json:"crossApp"`
	WorkloadIdentity *struct {
		ClientID  string `json:"clientId"`
		Assertion string `json:"assertion"`
		// Fetch: the assertion is a JS function, called through the
		// "assertion" op before each token request.
		Fetch bool `json:"fetch"`
	} `json:"workloadIdentity"`
}

// authOption reads registerMcpServer's auth option (absent: nil). It
// refuses with unsupported-type a value that is not the provider object
// npm/lib/mcp-auth.js builds.
func authOption(call string, raw json.RawMessage) (*mcp.Auth, error) {
	if raw == nil || jsontext.Kind(raw) == jsontext.Null {
		return nil, nil
	}
	var a authJSON
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &a) != nil || a.Fn <= 0 {
		return nil, optionTypeError(call, "auth", "an auth provider object", raw)
	}
	s := oauth.Settings{RedirectURL: a.RedirectURL, ClientMetadataURL: a.ClientMetadataURL, Scope: a.Scope,
		DPoP: a.DPoP, DPoPSigner: &jsDPoPSigner{p: &jsProvider{fn: a.Fn}}}
	if s.DPoP != "" && s.DPoP != oauth.DPoPAuto && s.DPoP != oauth.DPoPRequire && s.DPoP != oauth.DPoPOff {
		return nil, optionTypeError(call, "auth.dpop", `"auto", true or false`, json.RawMessage(strconv.Quote(s.DPoP)))
	}
	if len(a.ClientMetadata) > 0 && jsontext.Kind(a.ClientMetadata) == jsontext.Object {
		s.ClientMetadata = a.ClientMetadata
	}
	if a.ClientID != "" {
		s.Client = &oauth.ClientInfo{ClientID: a.ClientID, ClientSecret: a.ClientSecret, Issuer: a.ClientIssuer}
	}
	if cc := a.ClientCredentials; cc != nil {
		s.ClientCredentials = &oauth.ClientCredentials{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret, PrivateKeyPEM: cc.PrivateKey, Algorithm: cc.Algorithm}
		if cc.Signer {
			s.ClientCredentials.Sign = (&jsProvider{fn: a.Fn}).sign
		}
	}
	if x := a.CrossApp; x != nil {
		s.CrossApp = &oauth.CrossApp{IDPTokenEndpoint: x.IDPTokenEndpoint, IDToken: x.IDToken, IDPClientID: x.IDPClientID,
			IDPClientSecret: x.IDPClientSecret, ClientID: x.ClientID, ClientSecret: x.ClientSecret}
	}
	if w := a.WorkloadIdentity; w != nil {
		s.WorkloadIdentity = &oauth.WorkloadIdentity{ClientID: w.ClientID, Assertion: w.Assertion}
		if w.Fetch {
			s.WorkloadIdentity.FetchAssertion = (&jsProvider{fn: a.Fn}).assertion
		}
	}
	id := "js:" + strconv.FormatInt(a.Fn, 10)
	return &mcp.Auth{Settings: s, Provider: &jsProvider{fn: a.Fn}, ID: id}, nil
}

// authMapOption reads a loader's auth option: {server: provider} as
// npm/lib/mcp-auth.js sends it (one provider for every server is sent as
// {"*": provider}).
func authMapOption(call string, raw json.RawMessage) (map[string]*mcp.Auth, error) {
	if raw == nil || jsontext.Kind(raw) == jsontext.Null {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &m) != nil {
		return nil, optionTypeError(call, "auth", "an auth provider or {server: provider}", raw)
	}
	out := make(map[string]*mcp.Auth, len(m))
	for name, v := range m {
		a, err := authOption(call, v)
		if err != nil {
			return nil, err
		}
		out[name] = a
	}
	return out, nil
}

// jsProvider is an oauth.Provider whose every call is a host call of the
// JS dispatcher fn: {"op": "tokens" | "saveTokens" | "clientInformation" |
// "saveClientInformation" | "authorize" | "sign" | "assertion", …}.
type jsProvider struct{ fn int64 }

// ask runs op with the payload's other members and decodes the answer into v.
func (p *jsProvider) ask(ctx context.Context, payload map[string]any, v any) error {
	body, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	out, err := jsbridge.CallHost(ctx, p.fn, body)
	if err != nil {
		return err
	}
	if v == nil || jsontext.Kind(out) == jsontext.Null {
		return nil
	}
	if json.Unmarshal(out, v) != nil {
		return core.Errorf(core.CodeUnsupportedType, "", "the auth provider's %v answered a value of the wrong shape", payload["op"])
	}
	return nil
}

// Tokens is the provider's tokens().
func (p *jsProvider) Tokens(ctx context.Context) (*oauth.Tokens, error) {
	var t *oauth.Tokens
	err := p.ask(ctx, map[string]any{"op": "tokens"}, &t)
	if t != nil && t.AccessToken == "" {
		t = nil
	}
	return t, err
}

// SaveTokens is the provider's saveTokens(t).
func (p *jsProvider) SaveTokens(ctx context.Context, t *oauth.Tokens) error {
	return p.ask(ctx, map[string]any{"op": "saveTokens", "tokens": t}, nil)
}

// ClientInfo is the provider's clientInformation(issuer), with what it
// answered kept whole in Raw (the flow stores it again, stamped with the
// issuer, when it has no stamp yet: every member the application kept is
// kept).
func (p *jsProvider) ClientInfo(ctx context.Context, issuer string) (*oauth.ClientInfo, error) {
	var raw json.RawMessage
	if err := p.ask(ctx, map[string]any{"op": "clientInformation", "issuer": issuer}, &raw); err != nil || raw == nil {
		return nil, err
	}
	var ci *oauth.ClientInfo
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &ci) != nil {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "the auth provider's clientInformation answered a value of the wrong shape")
	}
	ci.Raw = raw
	return ci, nil
}

// SaveClientInfo is the provider's saveClientInformation(ci, issuer): the
// registration answer as the server sent it when there is one (with the
// flow's "issuer" stamp).
func (p *jsProvider) SaveClientInfo(ctx context.Context, issuer string, ci *oauth.ClientInfo) error {
	var info any = ci
	if len(ci.Raw) > 0 {
		info = ci.Raw
	}
	return p.ask(ctx, map[string]any{"op": "saveClientInformation", "issuer": issuer, "info": info}, nil)
}

// sign is the provider's "sign" op: the client assertion of claims signed
// in JS with the provider's private key (npm/lib/jws.js, WebCrypto).
func (p *jsProvider) sign(ctx context.Context, typ, alg string, claims []byte) (string, error) {
	var jws string
	err := p.ask(ctx, map[string]any{"op": "sign", "typ": typ, "alg": alg, "claims": json.RawMessage(claims)}, &jws)
	return jws, err
}

// assertion is the provider's "assertion" op: workloadIdentity.assertion()
// called now, whose answer must be a string (the workload's JWT). The text
// of a failure in JS is not passed on (WorkloadIdentityToken quotes none:
// it may hold anything); an answer of another type is refused by name.
func (p *jsProvider) assertion(ctx context.Context) (string, error) {
	var raw json.RawMessage
	if err := p.ask(ctx, map[string]any{"op": "assertion"}, &raw); err != nil {
		return "", err
	}
	var jwt string
	if jsontext.Kind(raw) != jsontext.String || json.Unmarshal(raw, &jwt) != nil {
		return "", &oauth.Error{Step: oauth.StepToken, Message: "auth.workloadIdentity.assertion() answered " + jsontext.Described(jsontext.Kind(raw)) + ", not a string"}
	}
	return jwt, nil
}

// redirectJSON is an authorization response as npm/lib/mcp-auth.js sends
// it: the code and state, or the error; iss only when the response carried
// one (absent and empty are not the same answer, RFC 9207).
type redirectJSON struct {
	Code        string  `json:"code"`
	State       string  `json:"state"`
	Iss         *string `json:"iss"`
	Error       string  `json:"error"`
	Description string  `json:"error_description"`
}

// redirect is r as the flow reads it.
func (r *redirectJSON) redirect() *oauth.Redirect {
	out := &oauth.Redirect{Code: r.Code, State: r.State, Error: r.Error, ErrorDescription: r.Description}
	if r.Iss != nil {
		out.Iss, out.HasIss = *r.Iss, true
	}
	return out
}

// Authorize is the provider's redirectToAuthorization(url): the
// authorization response the redirect brought (its code and state, or the
// authorization server's error, with its iss), or an error when the
// provider gave nothing (the flow is finished later with finishAuth).
func (p *jsProvider) Authorize(ctx context.Context, authURL string) (*oauth.Redirect, error) {
	var r redirectJSON
	if err := p.ask(ctx, map[string]any{"op": "authorize", "url": authURL}, &r); err != nil {
		return nil, err
	}
	if r.Code == "" && r.Error == "" {
		return nil, &oauth.Error{Step: oauth.StepAuthorization,
			Message: "redirectToAuthorization gave no code: the user was sent to the authorization page"}
	}
	return r.redirect(), nil
}

// finishAuth is tg.mcp.finishAuth. payload: {"server"} and the
// authorization response ({"code", "state", "iss"?} or {"error",
// "error_description", "state"?, "iss"?}); the result is true.
func finishAuth(ctx context.Context, p *mcp.Pool, payload []byte) (any, error) {
	var in struct {
		Server string `json:"server"`
		redirectJSON
	}
	if err := json.Unmarshal(payload, &in); err != nil || in.Server == "" {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "mcp.finishAuth: want {server, code, state}")
	}
	if err := p.FinishAuth(ctx, in.Server, in.redirect()); err != nil {
		return nil, err
	}
	return true, nil
}
