// Pydantic v2's lax scalar conversions for the JS evaluator (issue 23): core/lax.go and the
// number scanner of internal/jsontext/number.go, ported digit for digit, so that a string or a
// number becomes exactly the literal Go makes (never a rounded double) and is refused where Go
// refuses it. Node and browser.
import { MAX_NUMBER_EXPONENT } from "./contract.js";
import { numberOf } from "./evaluator-num.js";

/** The JSON Schema types as the bits of a plan's kinds (core's jsonKinds). @internal */
export const KIND = Object.freeze({ null: 1, boolean: 2, integer: 4, number: 8, string: 16, array: 32, object: 64 });

/** Python's (and so Pydantic's) limit on the digits of an integer read from a string (core maxIntDigits). */
const MAX_INT_DIGITS = 4300;

function skipDigits(s, i) {
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  return i;
}

/**
 * jsontext.ParseDecimal: {neg, int, frac, exp} or null. Strict is the JSON grammar; lax is Rust's
 * and Python's float text, [+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?, leading zeros allowed.
 */
function parseDecimal(s, lax) {
  const n = s.length;
  let i = 0;
  let neg = false;
  const c = s.charCodeAt(0);
  if (c === 45 || (lax && c === 43)) {
    neg = c === 45;
    i++;
  }
  let start = i;
  i = skipDigits(s, i);
  const int = s.slice(start, i);
  if (!lax && (int === "" || (int.length > 1 && int.charCodeAt(0) === 48))) return null;
  let frac = "";
  if (i < n && s.charCodeAt(i) === 46) {
    start = i + 1;
    i = skipDigits(s, start);
    frac = s.slice(start, i);
    if (!lax && frac === "") return null;
  }
  if (int === "" && frac === "") return null;
  let exp = "";
  if (i < n && (s.charCodeAt(i) | 32) === 101) {
    start = i + 1;
    i = start;
    if (i < n && (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45)) i++;
    const digits = i;
    i = skipDigits(s, i);
    if (i === digits) return null;
    exp = s.slice(start, i);
  }
  return i === n ? { neg, int, frac, exp } : null;
}

/** Decimal.exponent: the exponent's value, its magnitude saturated at limit; ok false when it saturated. */
function exponent(d, limit) {
  const digits = d.exp[0] === "+" || d.exp[0] === "-" ? d.exp.slice(1) : d.exp;
  let e = 0;
  let ok = true;
  for (let i = 0; i < digits.length && ok; i++) {
    e = e * 10 + (digits.charCodeAt(i) - 48);
    if (e > limit) {
      e = limit;
      ok = false;
    }
  }
  return { e: d.exp[0] === "-" ? -e : e, ok };
}

/** Decimal.ExponentWithin: the exponent net of the fraction digits (1.5e3 → 2) is within ±max. */
function exponentWithin(d, max) {
  const net = exponent(d, max + d.frac.length + 1).e - d.frac.length;
  return net >= -max && net <= max;
}

/** s without its leading zeros. */
function trimZeros(s) {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) === 48) i++;
  return i === 0 ? s : s.slice(i);
}

/** Whether s holds only zeros ("" included). */
function allZeros(s) {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 48) return false;
  return true;
}

/** Decimal.Canonical: the same digits as a JSON literal ("5." → "5", "+.5e+01" → "0.5e+01"). */
function canonical(d) {
  return (d.neg ? "-" : "") + (trimZeros(d.int) || "0") + (d.frac ? "." + d.frac : "") + (d.exp ? "e" + d.exp : "");
}

/** Decimal.Integer: the exact integer literal d denotes (5.0 → "5", 1e3 → "1000"), or null. */
function integer(d, maxDigits) {
  const { e, ok } = exponent(d, maxDigits);
  if (!ok) return null;
  let digits = trimZeros(d.int + d.frac);
  const exp = e - d.frac.length;
  if (exp < 0) {
    const cut = Math.max(digits.length + exp, 0);
    if (!allZeros(digits.slice(cut))) return null; // a fractional part
    digits = digits.slice(0, cut);
  } else if (digits !== "") {
    if (digits.length + exp > maxDigits) return null;
    digits += "0".repeat(exp);
  }
  if (digits === "") return "0";
  return d.neg ? "-" + digits : digits;
}

/** jsontext.IsIntegerText: a literal with neither fraction nor exponent. */
export function isIntegerText(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 || (c | 32) === 101) return false;
  }
  return true;
}

/** The common case of strAsInt without the scanner: [+-]? and up to 15 digits, or null. */
function shortInteger(s) {
  const n = s.length;
  const c = s.charCodeAt(0);
  const i = c === 45 || c === 43 ? 1 : 0;
  if (n === i || n - i > 15 || skipDigits(s, i) !== n) return null;
  const digits = trimZeros(s.slice(i));
  if (digits === "") return "0";
  return c === 45 ? "-" + digits : digits;
}

/** wholeDecimal: [+-]digits, optionally "." and only zeros, as a canonical integer literal. */
function wholeDecimal(s) {
  const d = parseDecimal(s, true);
  if (d === null || d.int === "" || d.exp !== "" || !allZeros(d.frac)) return null;
  d.frac = "";
  return integer(d, MAX_INT_DIGITS);
}

/** stripUnderscores: underscores removed unless one leads, trails or two are adjacent. */
function stripUnderscores(s) {
  if (!s.includes("_") || s.startsWith("_") || s.endsWith("_") || s.includes("__")) return null;
  return s.replaceAll("_", "");
}

/** strAsInt: pydantic-core's str_as_int, as the canonical JSON integer literal, or null. */
function strAsInt(s) {
  // Go counts bytes, JS UTF-16 units: they differ only for a string that is not ASCII, which no
  // rule below accepts.
  if (s.length > MAX_INT_DIGITS) return null;
  const quick = shortInteger(s);
  if (quick !== null) return quick;
  const t = wholeDecimal(s);
  if (t !== null) return t;
  if (s.includes(".")) return null;
  const stripped = stripUnderscores(s);
  return stripped === null ? null : wholeDecimal(stripped);
}

/** decimalLiteral: Rust's float text as a JSON literal with the same digits, within the exponent bound. */
function decimalLiteral(s) {
  const d = parseDecimal(s, true);
  return d !== null && exponentWithin(d, MAX_NUMBER_EXPONENT) ? canonical(d) : null;
}

/** strAsFloat: pydantic-core's str_as_float, finite values only ("inf" and "nan" are not converted). */
function strAsFloat(s) {
  const t = decimalLiteral(s);
  if (t !== null) return t;
  const stripped = stripUnderscores(s);
  return stripped === null ? null : decimalLiteral(stripped);
}

/** floatText: an integer literal gets ".0" (5 → 5.0), as Pydantic dumps a float. */
function floatText(s) {
  return isIntegerText(s) ? s + ".0" : s;
}

/** numberAsInt: float_as_int on a JSON literal, exact (5.0 → "5", 1e3 → "1000"), or null. */
function numberAsInt(s) {
  const d = parseDecimal(s, false);
  return d === null ? null : integer(d, MAX_INT_DIGITS);
}

const BOOL_WORDS = new Map([
  ["f", false], ["n", false], ["no", false], ["off", false], ["false", false],
  ["t", true], ["y", true], ["on", true], ["yes", true], ["true", true],
]);

/** strAsBool: "0" / "1" exactly, and f, n, no, off, false / t, y, on, yes, true in any ASCII case. */
function strAsBool(s) {
  if (s === "0") return false;
  if (s === "1") return true;
  if (s.length > 5) return null;
  let b = BOOL_WORDS.get(s);
  if (b === undefined && /[A-Z]/.test(s)) b = BOOL_WORDS.get(s.replace(/[A-Z]+/g, (w) => w.toLowerCase()));
  return b === undefined ? null : b;
}

/** zeroOrOne: the integer literal 0 (or -0) / 1 as false / true. */
function zeroOrOne(s) {
  if (s === "0" || s === "-0") return false;
  return s === "1" ? true : null;
}

/** numberOf(t) for a literal Go made: a canonical integer of at most 15 digits is its double as it is. */
function valueOf(t) {
  const digits = t.charCodeAt(0) === 45 ? t.length - 1 : t.length;
  return digits <= 15 && isIntegerText(t) ? Number(t) : numberOf(t);
}

/**
 * fromString: Pydantic's lax str → int / float / bool where the kinds accept no string:
 * {value, from, to} (value an evaluator value), or null when nothing changes.
 * @internal
 */
export function fromString(kinds, s) {
  if (kinds & KIND.string) return null;
  let numText = null;
  let to = null;
  if (kinds & KIND.integer) {
    const t = strAsInt(s);
    if (t !== null) [numText, to] = [t, "integer"];
  }
  if (to === null && kinds & KIND.number) {
    const t = strAsFloat(s);
    if (t !== null) [numText, to] = [floatText(t), "number"];
  }
  const b = kinds & KIND.boolean ? strAsBool(s) : null;
  if (to !== null) return b !== null ? null : { value: valueOf(numText), from: "string", to }; // number or boolean: ambiguous
  return b !== null ? { value: b, from: "string", to: "boolean" } : null;
}

/**
 * fromNumber: Pydantic's lax number conversions on a JSON literal s (int → float where only
 * "number" is accepted, a float with no fractional part → int, 0 / 1 → bool): {value, from, to},
 * or null when nothing changes.
 * @internal
 */
export function fromNumber(kinds, s) {
  if (isIntegerText(s)) {
    if (kinds & KIND.integer) return null;
    if (kinds & KIND.number) return { value: numberOf(floatText(s)), from: "integer", to: "number" };
    if (kinds & KIND.boolean) {
      const b = zeroOrOne(s);
      if (b !== null) return { value: b, from: "integer", to: "boolean" };
    }
    return null;
  }
  if (kinds & KIND.number) return null;
  if (kinds & KIND.integer) {
    const t = numberAsInt(s);
    return t === null ? null : { value: valueOf(t), from: "number", to: "integer" };
  }
  if (kinds & KIND.boolean) {
    const t = numberAsInt(s);
    const b = t === null ? null : zeroOrOne(t);
    if (b !== null) return { value: b, from: "number", to: "boolean" };
  }
  return null;
}
