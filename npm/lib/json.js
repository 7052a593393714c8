// BigInt-safe JSON both ways between JS and Go. Node and browser.

/** Serialises a value for Go; BigInts become exact JSON integers. Node and browser. */
export function toJSON(value) {
  try {
    return JSON.stringify(value); // the common case: no BigInt anywhere
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  let big = false;
  const text = JSON.stringify(value, (_k, v) => {
    if (typeof v === "bigint") {
      big = true;
      return `\u0000bigint:${v}`;
    }
    return v;
  });
  return big ? text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1") : text;
}

/** Turns the JSON pointers Go marks as big integers into BigInts, in place; returns obj. Node and browser. */
export function reviveBigints(obj, pointers) {
  for (const ptr of pointers) {
    const parts = ptr.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    let parent = obj;
    for (let i = 0; i < parts.length - 1; i++) parent = parent[parts[i]];
    const last = parts[parts.length - 1];
    parent[last] = BigInt(parent[last]);
  }
  return obj;
}
