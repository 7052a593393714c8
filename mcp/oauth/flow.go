package oauth

import "context"

// Provider is where a flow keeps what it learns and how it reaches the
// user (JS: the auth provider's functions; the mcp package gives a memory
// store for what the application does not keep itself).
type Provider interface {
	// Tokens returns the stored tokens for the server (nil: none).
	Tokens(ctx context.Context) (*Tokens, error)
	// SaveTokens stores tokens (nil: forget them).
	SaveTokens(ctx context.Context, t *Tokens) error
	// ClientInfo returns the stored registration at issuer (nil: none).
	ClientInfo(ctx context.Context, issuer string) (*ClientInfo, error)
	// SaveClientInfo stores a registration at issuer.
	SaveClientInfo(ctx context.Context, issuer string, ci *ClientInfo) error
	// Authorize sends the user to authURL and returns the code and state
	// the redirect brought back; an error when the user cannot be asked
	// now (the application finishes later with the code).
	Authorize(ctx context.Context, authURL string) (code, state string, err error)
}

// Authorize runs the flow for the MCP server at serverURL after its
// challenge ch (a 401, or a 403 insufficient_scope for a step-up):
// discovery, registration, then the grant s selects, and stores the
// tokens with p. It returns the tokens to send.
func Authorize(ctx context.Context, c *Client, serverURL string, ch Challenge, s *Settings, p Provider) (*Tokens, error) {
	return nil, errNotBuilt(StepDiscovery)
}

// errNotBuilt is the error of a part of the flow not built yet.
func errNotBuilt(step Step) *Error {
	return &Error{Step: step, Message: "not built yet"}
}
