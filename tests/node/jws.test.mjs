// The private_key_jwt client assertion signed in JS with WebCrypto (lib/jws.js), which keeps the
// key out of Go and the key parser out of the WebAssembly download: every algorithm verifies with
// node:crypto against the key's public half, the key's own algorithm is found when none is asked,
// and a key that does not fit is refused without quoting it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, createVerify, createPublicKey, verify } from "node:crypto";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("toolgate/package.json"));
const { signJws, isPkcs8Pem } = await import(pathToFileURL(join(pkgDir, "lib", "jws.js")).href);

const b64 = (s) => Buffer.from(s, "base64url");
const claims = JSON.stringify({ iss: "c", sub: "c", aud: "https://as.example", iat: 1, exp: 301, jti: "x".repeat(16) });

function keyPair(type, opts) {
  const { privateKey, publicKey } = generateKeyPairSync(type, opts);
  return { pem: privateKey.export({ type: "pkcs8", format: "pem" }), publicKey };
}

/** Verifies a compact JWS with node:crypto; returns its header. */
function check(jws, publicKey, alg) {
  const [h, p, s] = jws.split(".");
  const header = JSON.parse(b64(h));
  assert.equal(b64(p).toString(), claims);
  const hash = `sha${alg.slice(2)}`;
  const data = Buffer.from(`${h}.${p}`);
  let ok;
  if (alg.startsWith("ES")) ok = verify(hash, data, { key: publicKey, dsaEncoding: "ieee-p1363" }, b64(s));
  else if (alg.startsWith("PS")) ok = verify(hash, data, { key: publicKey, padding: 6, saltLength: Number(alg.slice(2)) / 8 }, b64(s));
  else ok = createVerify(hash).update(data).verify(publicKey, b64(s));
  assert.ok(ok, `${alg}: the signature verifies with the public key`);
  return header;
}

test("ES256/384/512, RS256 and PS256 assertions verify with the key's public half", async () => {
  const cases = [
    ["ES256", keyPair("ec", { namedCurve: "P-256" })],
    ["ES384", keyPair("ec", { namedCurve: "P-384" })],
    ["ES512", keyPair("ec", { namedCurve: "P-521" })],
    ["RS256", keyPair("rsa", { modulusLength: 2048 })],
    ["PS256", keyPair("rsa", { modulusLength: 2048 })],
  ];
  for (const [alg, k] of cases) {
    const header = check(await signJws(k.pem, alg, "JWT", claims), k.publicKey, alg);
    assert.deepEqual(header, { alg, typ: "JWT" });
  }
});

test("with no algorithm asked, the key's own is used (ES256 for P-256, ES384 for P-384, RS256 for RSA)", async () => {
  for (const [alg, k] of [["ES256", keyPair("ec", { namedCurve: "P-256" })], ["ES384", keyPair("ec", { namedCurve: "P-384" })], ["RS256", keyPair("rsa", { modulusLength: 2048 })]]) {
    const jws = await signJws(k.pem, "", "JWT", claims);
    assert.equal(check(jws, k.publicKey, alg).alg, alg);
  }
});

test("a key that does not fit the algorithm, or an unknown algorithm, is refused without quoting the key", async () => {
  const k = keyPair("ec", { namedCurve: "P-256" });
  await assert.rejects(signJws(k.pem, "RS256", "JWT", claims), (e) => e instanceof TypeError && !e.message.includes("PRIVATE"));
  await assert.rejects(signJws(k.pem, "HS256", "JWT", claims), /unsupported JWS algorithm/);
  assert.equal(isPkcs8Pem(k.pem), true);
  const sec1 = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "sec1", format: "pem" });
  assert.equal(isPkcs8Pem(sec1), false, "SEC 1 PEM is not PKCS#8: the auth option refuses it up front");
  assert.ok(createPublicKey(k.pem));
});
