package oauth

import "context"

// Register returns the client's registration at the authorization server
// of meta, in the spec's order of preference: s.Client (pre-registered),
// then s.ClientMetadataURL as client_id when meta says
// client_id_metadata_document_supported, then dynamic registration (RFC
// 7591) at meta.RegistrationEndpoint with s.ClientMetadata. It refuses
// (StepRegistration) when none applies, and reports the server's OAuth
// error of a refused registration.
func Register(ctx context.Context, c *Client, meta *ServerMetadata, s *Settings) (*ClientInfo, error) {
	return nil, errNotBuilt(StepRegistration)
}
