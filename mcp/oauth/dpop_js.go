//go:build js

package oauth

// defaultDPoPSigner is nil under js: the WebAssembly build links no
// signature code; the JS host keeps DPoP keys in WebCrypto and hands the
// flow Settings.DPoPSigner (npm/lib/dpop.js; dpop_native.go has the
// native signer).
func defaultDPoPSigner() DPoPSigner { return nil }
