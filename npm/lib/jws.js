// Client assertions (private_key_jwt) signed with WebCrypto, so the private key stays in JS and the
// WebAssembly module links no key parser or signature code (mcp/oauth/token_jwt_js.go). Node ≥ 20
// and browsers. Internal.

const encoder = new TextEncoder();

/** The JWS algorithms and how WebCrypto imports and signs with each. */
const ALGORITHMS = {
  ES256: { importParams: { name: "ECDSA", namedCurve: "P-256" }, signParams: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { importParams: { name: "ECDSA", namedCurve: "P-384" }, signParams: { name: "ECDSA", hash: "SHA-384" } },
  ES512: { importParams: { name: "ECDSA", namedCurve: "P-521" }, signParams: { name: "ECDSA", hash: "SHA-512" } },
  RS256: { importParams: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, signParams: { name: "RSASSA-PKCS1-v1_5" } },
  RS384: { importParams: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" }, signParams: { name: "RSASSA-PKCS1-v1_5" } },
  RS512: { importParams: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, signParams: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { importParams: { name: "RSA-PSS", hash: "SHA-256" }, signParams: { name: "RSA-PSS", saltLength: 32 } },
  PS384: { importParams: { name: "RSA-PSS", hash: "SHA-384" }, signParams: { name: "RSA-PSS", saltLength: 48 } },
  PS512: { importParams: { name: "RSA-PSS", hash: "SHA-512" }, signParams: { name: "RSA-PSS", saltLength: 64 } },
};

/** The order a key's own algorithm is looked for when none is asked (ES256 for a P-256 key, as in Go). */
const GUESS = ["ES256", "ES384", "ES512", "RS256"];

/** Whether text is one PKCS#8 PEM private key ("-----BEGIN PRIVATE KEY-----"). */
export function isPkcs8Pem(text) {
  return typeof text === "string" && /^\s*-----BEGIN PRIVATE KEY-----[A-Za-z0-9+/=\s]+-----END PRIVATE KEY-----\s*$/.test(text);
}

/** The DER bytes of a PKCS#8 PEM. */
function pemBytes(pem) {
  const b64 = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** base64url without padding of bytes or a string's UTF-8. */
function b64url(data) {
  const bytes = typeof data === "string" ? encoder.encode(data) : new Uint8Array(data);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The key imported for alg, or null when it is not a key of that algorithm. */
async function importFor(der, alg) {
  try {
    return await crypto.subtle.importKey("pkcs8", der, ALGORITHMS[alg].importParams, false, ["sign"]);
  } catch {
    return null;
  }
}

/**
 * The compact JWS of claims (JSON text) with the header {alg, typ}, signed by the PKCS#8 PEM key:
 * with alg, or the key's own algorithm when alg is "". Throws a TypeError naming what does not fit
 * (never the key).
 */
export async function signJws(pem, alg, typ, claims) {
  if (alg && !ALGORITHMS[alg]) throw new TypeError(`unsupported JWS algorithm ${String(alg).slice(0, 20)}`);
  const der = pemBytes(pem);
  let key = null;
  for (const a of alg ? [alg] : GUESS) {
    key = await importFor(der, a);
    if (key) {
      alg = a;
      break;
    }
  }
  if (!key) throw new TypeError("the private key does not fit the algorithm");
  const input = `${b64url(JSON.stringify({ alg, typ }))}.${b64url(claims)}`;
  const sig = await crypto.subtle.sign(ALGORITHMS[alg].signParams, key, encoder.encode(input));
  return `${input}.${b64url(sig)}`; // WebCrypto's ECDSA signature is r‖s, as JWS wants
}
