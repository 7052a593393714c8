package mcp

import (
	"context"
	"fmt"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
	"github.com/toolgate/toolgate/mcp/oauth"
)

// send sends one session request through the guard with the registration's
// bearer token (when it has Auth): the token goes only to the MCP server
// (every session request is on its origin: the guard pins it). A
// DPoP-bound token goes with a fresh proof (oauth.DPoP.SetAuthorization),
// and a 401 use_dpop_nonce challenge sends req again once with the
// server's nonce, flow or not. With flow,
// a 401 runs the authorization flow and sends req again with the new
// token, once; a 403 whose challenge says insufficient_scope steps up (a
// new authorization with the challenge's scope), at most maxFlows flows in
// all, then the answer is auth-failed (step-up). Without Auth it is the
// guard's RoundTrip.
func (s *session) send(req *wire.Request, flow bool) (*wire.Response, error) {
	st := s.auth
	if st == nil {
		return s.g.RoundTrip(req)
	}
	ctx := req.Context()
	flows, had401, nonceRetried := 0, false, false
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			req.Header = req.Header.Clone() // the guard may still hold the last attempt's header
		}
		tok := ""
		if t := st.current(ctx); t != nil {
			tok = t.AccessToken // sent or not (a DPoP key gone): a 401 runs the flow
			st.client.DPoP.SetAuthorization(ctx, req, t)
		}
		resp, err := s.g.RoundTrip(req)
		if err == nil && st.client.DPoP.ResourceAnswer(req, resp.StatusCode, resp.Header) {
			if nonceRetried {
				return resp, nil // a second use_dpop_nonce: the server's refusal, reported as it is
			}
			nonceRetried = true // RFC 9449 §9: once per request
			_ = resp.Body.Close()
			continue
		}
		if err != nil || !flow || (resp.StatusCode != 401 && resp.StatusCode != 403) {
			return resp, err
		}
		ch := oauth.ParseChallenge(resp.Header.Values("WWW-Authenticate"))
		stepUp := resp.StatusCode == 403 && ch.Error == "insufficient_scope"
		if resp.StatusCode == 403 && !stepUp || resp.StatusCode == 401 && had401 {
			return resp, nil // the server's refusal, reported as it is
		}
		_ = resp.Body.Close()
		if flows >= maxFlows {
			return nil, s.stepUpFailed(flows)
		}
		flows++
		had401 = had401 || resp.StatusCode == 401
		if err := st.authorize(ctx, tok, ch); err != nil {
			return nil, err
		}
	}
}

// stepUpFailed is the auth-failed error of a server that still refuses the
// token's scope after n authorizations.
func (s *session) stepUpFailed(n int) *core.Error {
	e := serverError(core.CodeAuthFailed, s.cfg.Name, s.cfg, "%s", fmt.Sprintf(
		"the server still answers 403 insufficient_scope after %s authorizations: giving up (no scope the authorization server grants satisfies it)",
		strconv.Itoa(n)))
	e.Auth = &core.AuthDetail{Step: string(oauth.StepStepUp)}
	e.Transport = &core.TransportDetail{HTTPStatus: 403}
	return e
}

// FinishAuth completes the authorization code grant that waits for its
// redirect (the provider could not ask the user when the server asked for
// authorization: auth-failed, step authorization) on every pool entry of
// the server named server: it redeems the code of the authorization
// response r (oauth.ParseRedirect reads one from the redirect URL) after
// oauth.Finish's checks. It refuses with invalid-request when no
// authorization of server waits, and with auth-failed (step authorization
// or token) what the flow refuses: an iss that is not the authorization
// server's issuer, or none where the server promised one (RFC 9207); the
// authorization server's error response; a state that is not the one
// sent; the token endpoint's refusal.
func (p *Pool) FinishAuth(ctx context.Context, server string, r *oauth.Redirect) error {
	p.mu.Lock()
	var waiting []*authState
	for _, e := range p.entries {
		if e.cfg.Name == server && e.auth != nil && e.auth.hasPending() {
			waiting = append(waiting, e.auth)
		}
	}
	p.mu.Unlock()
	if len(waiting) == 0 {
		return core.Errorf(core.CodeInvalidRequest, server, "server %s: no OAuth authorization is waiting for its redirect", strconv.QuoteToASCII(server))
	}
	var first error
	done := false
	for _, st := range waiting {
		if err := st.finish(ctx, r); err != nil && first == nil {
			first = err
		} else if err == nil {
			done = true
		}
	}
	if done {
		return nil
	}
	return first
}

// hasPending reports whether a code grant waits for its redirect.
func (st *authState) hasPending() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.pending != nil
}
