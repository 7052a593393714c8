package oauth

import (
	"context"
	"encoding/json"
)

// RuleClientIssuer: a pre-registered client whose issuer is configured
// (ClientInfo.Issuer) meets another authorization server.
const RuleClientIssuer = "client-issuer"

// clientFor is the client's registration at at's authorization server:
// pre-registered (refused, RuleClientIssuer, when it names another
// server's issuer: its id is not sent to this one), stored by p for that
// server (storedClient), or made now and stored, stamped with the
// server's issuer. A registration is bound
// to the authorization server that issued it (MCP 2026-07-28, "Authorization
// Server Binding"; docs/oauth.md, "Credentials and their issuer"): when the
// resource moves to another server, the flow registers again there.
func clientFor(ctx context.Context, c *Client, at *found, s *Settings, p Provider) (*ClientInfo, error) {
	if s.Client != nil {
		c.Secrets.Add(s.Client.ClientSecret)
		if !issuedBy(s.Client.Issuer, at.issuer) {
			e := c.Secrets.errorf(StepRegistration, "", "",
				"the pre-registered client belongs to the authorization server %s, and the resource now names %s: register a client there",
				redactURL(s.Client.Issuer), redactURL(at.meta.Issuer))
			e.Rule = RuleClientIssuer
			return nil, e
		}
		return s.Client, nil
	}
	ci, err := storedClient(ctx, c, at, p)
	if err != nil || ci != nil {
		return ci, err
	}
	ci, err = runRegister(ctx, c, at.meta, s)
	if err != nil {
		return nil, err
	}
	if ci == nil {
		return nil, &Error{Step: StepRegistration, Message: "no client registration"}
	}
	c.Secrets.Add(ci.ClientSecret)
	if ci.Raw != nil || ci.ClientID != s.ClientMetadataURL {
		stampClient(ci, at.issuer)
		if err := p.SaveClientInfo(ctx, at.issuer, ci); err != nil {
			return nil, flowError(err, StepRegistration, c)
		}
	}
	return ci, nil
}

// storedClient is the registration p keeps for at's issuer, when it may
// be used there: nil when there is none, or when its stamp names another
// authorization server (an application's storage that ignores the issuer
// it is asked for, after the resource moved). A registration stored
// before the stamp existed is taken as the issuer's (toolgate always
// stored it under the issuer) and stored again, stamped, so the next
// move is seen too.
func storedClient(ctx context.Context, c *Client, at *found, p Provider) (*ClientInfo, error) {
	ci, err := p.ClientInfo(ctx, at.issuer)
	if err != nil {
		return nil, flowError(err, StepRegistration, c)
	}
	if ci == nil || ci.ClientID == "" || !issuedBy(ci.Issuer, at.issuer) {
		return nil, nil
	}
	c.Secrets.Add(ci.ClientSecret)
	if ci.Issuer == "" {
		stampClient(ci, at.issuer)
		if err := p.SaveClientInfo(ctx, at.issuer, ci); err != nil {
			return nil, flowError(err, StepRegistration, c)
		}
	}
	return ci, nil
}

// stampClient records issuer as ci's authorization server, in the
// registration answer ci.Raw too (an object: the member "issuer" set).
func stampClient(ci *ClientInfo, issuer string) {
	ci.Issuer = issuer
	if len(ci.Raw) == 0 {
		return
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(ci.Raw, &m) != nil || m == nil {
		return
	}
	m["issuer"], _ = json.Marshal(issuer)
	if raw, err := json.Marshal(m); err == nil {
		ci.Raw = raw
	}
}

// issuedBy reports whether a credential stamped stamp belongs to the
// authorization server issuer: the same issuer (one trailing "/" aside, as
// registrations are keyed), or no stamp (stored before the stamp existed).
func issuedBy(stamp, issuer string) bool {
	return stamp == "" || trimSlash(stamp) == trimSlash(issuer)
}
