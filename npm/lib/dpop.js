// DPoP keys (RFC 9449) made and kept in WebCrypto, and the proofs signed with them, for one auth
// provider: the private keys are not extractable and never leave this module's closure; Go gets a
// key's thumbprint and the proofs only (mcp/oauth/dpop.go, docs/oauth.md "DPoP"). Node ≥ 20 and
// browsers. Internal.

const encoder = new TextEncoder();

/** The most keys one provider's store holds; a new key past it forgets the oldest (README's limits). */
export const MAX_DPOP_KEYS = 64;

/** base64url without padding of bytes or a string's UTF-8. */
function b64url(data) {
  const bytes = typeof data === "string" ? encoder.encode(data) : new Uint8Array(data);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The RFC 7638 thumbprint of an EC public JWK: SHA-256 of {crv, kty, x, y} in that order. */
async function thumbprint(jwk) {
  const canon = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return b64url(await crypto.subtle.digest("SHA-256", encoder.encode(canon)));
}

/**
 * A store of DPoP keys: newKey() makes an ES256 (P-256) key pair whose private key is not
 * extractable and resolves to its thumbprint; proof(jkt, claims) signs the claims (JSON text Go
 * built: jti, htm, htu, iat, nonce?, ath?) as a dpop+jwt with the key's public JWK in the header;
 * forget(jkt) drops a key whose tokens a new grant replaced (Go asks), so a registration holds the
 * keys of its live tokens only and MAX_DPOP_KEYS is a bound for a provider shared by many servers.
 * The keys live in this closure only: nothing returned holds one.
 */
export function dpopKeys() {
  const keys = new Map(); // thumbprint → {privateKey, header}
  return {
    async newKey() {
      const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
      const full = await crypto.subtle.exportKey("jwk", pair.publicKey);
      const jwk = { kty: full.kty, crv: full.crv, x: full.x, y: full.y }; // public members only
      const jkt = await thumbprint(jwk);
      if (keys.size >= MAX_DPOP_KEYS) keys.delete(keys.keys().next().value);
      keys.set(jkt, { privateKey: pair.privateKey, header: b64url(JSON.stringify({ typ: "dpop+jwt", alg: "ES256", jwk })) });
      return jkt;
    },
    forget(jkt) {
      keys.delete(jkt);
    },
    async proof(jkt, claims) {
      const k = typeof jkt === "string" ? keys.get(jkt) : undefined;
      if (!k) throw new TypeError("no DPoP key of that thumbprint"); // Go makes a new one after the server's 401
      const input = `${k.header}.${b64url(claims)}`;
      const sig = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, k.privateKey, encoder.encode(input));
      return `${input}.${b64url(sig)}`; // WebCrypto's ECDSA signature is r‖s, as JWS wants
    },
  };
}
