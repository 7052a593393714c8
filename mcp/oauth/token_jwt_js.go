//go:build js

package oauth

// signPEM refuses under js: the WebAssembly build links no key parser
// (crypto/x509 and the signature packages weigh about 400 KB compressed);
// the JS package signs client assertions with WebCrypto and hands the
// flow ClientCredentials.Sign instead (token_jwt_native.go has the
// native signer).
func signPEM(_, _, _ string, _ map[string]any) (string, error) {
	return "", jwtError("this build signs client assertions through the host (ClientCredentials.Sign); a PEM key alone is not enough here")
}
