// The mock model of the recovery harness: it corrects a refused call from the failure text it was
// sent and the arguments it had sent, and nothing else (it never sees the schema). It reads the
// text's per-issue lines ("- field /a/0/b, rule "kw": message") and applies each generically:
// a value named in the message is taken, a bound clamps, a suggested name renames, a key not
// allowed is dropped, a missing field is filled with a value of the kind the message names (a
// string when it names none). One retry per call: correct() is called once.

/** The corrected arguments for text, from the arguments sent (not changed). */
export function correct(text, sent) {
  const args = structuredClone(sent);
  const lines = text.split("\n").filter((l) => l.startsWith("- "));
  const renames = [];
  for (const line of lines) {
    const m = /^- (?:field (\S+)|the arguments), rule "([^"]*)": (.*)$/.exec(line);
    if (!m) continue;
    const [, path = "", keyword, message] = m;
    const keys = path.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    const old = get(args, keys);
    const near = /did you mean "([^"]+)"/.exec(message);
    if (near) {
      renames.push([keys, near[1]]);
      continue;
    }
    if (/not allowed/.test(message)) {
      del(args, keys);
      continue;
    }
    if (/is required/.test(message)) {
      if (get(args, keys) === undefined) set(args, keys, valueFor(message.slice(message.indexOf("is required")), undefined));
      continue;
    }
    set(args, keys, valueFor(message, old, keyword));
  }
  // a rename fills the field a missing-field line filled with a guess
  for (const [keys, name] of renames) {
    const parent = keys.slice(0, -1);
    const value = get(args, keys);
    del(args, keys);
    set(args, [...parent, name], value);
  }
  return args;
}

/** A value the message says is accepted, from the value sent (old) when it can be converted. */
function valueFor(message, old) {
  const values = quotedValues(message);
  if (values.length > 0) return values[0];
  const len = /length must be ([<>]=) (\d+)/.exec(message);
  if (len) return len[1] === ">=" ? String(old ?? "").padEnd(Number(len[2]), "x") : String(old ?? "").slice(0, Number(len[2]));
  const num = numberFor(message, old);
  if (num !== undefined) return num;
  if (/\ba boolean\b|expected boolean/.test(message)) return old === "false" ? false : true;
  if (/\ban array\b|expected array/.test(message)) return old === undefined || typeof old === "object" && old !== null && !Array.isArray(old) ? [] : [old];
  if (/\ban object\b|expected object/.test(message)) return {};
  if (/at least (\d+) characters/.test(message)) return "x".repeat(Number(/at least (\d+) characters/.exec(message)[1]));
  const items = /maximum (\d+) items/.exec(message);
  if (items && Array.isArray(old)) return old.slice(0, Number(items[1]));
  if (typeof old === "object" && old !== null) {
    const inner = Object.values(old).find((v) => typeof v === "string");
    return inner ?? JSON.stringify(old);
  }
  return old === undefined ? "value" : String(old);
}

/** The values a message offers: `must be one of "a", "b"`, `must be "x"`, `takes the value 5`, `one of …`. */
function quotedValues(message) {
  const m = /(?:one of|must be|the value) ((?:"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)(?:, (?:"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null))*)/.exec(message);
  if (!m) return [];
  return m[1].match(/"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null/g).map((t) => JSON.parse(t));
}

/** A number for a message about numbers: the value sent converted, then clamped to its bounds. */
function numberFor(message, old) {
  const integer = /\ban integer\b|expected integer/.test(message);
  const number = integer || /\ba number\b|expected number|must be [<>]=? -?\d|not multipleOf/.test(message);
  if (!number) return undefined;
  let v = typeof old === "number" ? old : Number.parseFloat(String(old));
  if (!Number.isFinite(v)) v = 1;
  if (integer) v = Math.round(v);
  const bound = (re) => { const m = re.exec(message); return m ? Number(m[1]) : undefined; };
  const ge = bound(/>= (-?[\d.]+)/), gt = bound(/> (-?[\d.]+)/), le = bound(/<= (-?[\d.]+)/), lt = bound(/< (-?[\d.]+)/);
  const step = integer || Number.isInteger(old) ? 1 : 0.5;
  if (ge !== undefined && v < ge) v = ge;
  if (gt !== undefined && v <= gt) v = gt + step;
  if (le !== undefined && v > le) v = le;
  if (lt !== undefined && v >= lt) v = lt - step;
  const mult = /not multipleOf (-?[\d.]+)/.exec(message);
  if (mult) v = Math.round(v / Number(mult[1])) * Number(mult[1]);
  return v;
}

function get(o, keys) {
  for (const k of keys) {
    if (o === null || typeof o !== "object") return undefined;
    o = o[k];
  }
  return o;
}

function set(o, keys, value) {
  if (keys.length === 0) return;
  const parent = get(o, keys.slice(0, -1));
  if (parent !== null && typeof parent === "object") parent[keys.at(-1)] = value;
}

function del(o, keys) {
  const parent = get(o, keys.slice(0, -1));
  if (parent !== null && typeof parent === "object") delete parent[keys.at(-1)];
}
