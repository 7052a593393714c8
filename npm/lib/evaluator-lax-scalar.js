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
  let i = 0;
  let neg = false;
  if (i < s.length && (s[i] === "-" || (lax && s[i] === "+"))) {
    neg = s[i] === "-";
    i++;
  }
  let start = i;
  i = skipDigits(s, i);
  const int = s.slice(start, i);
  if (!lax && (int === "" || (int.length > 1 && int[0] === "0"))) return null;
  let frac = "";
  if (i < s.length && s[i] === ".") {
    start = i + 1;
    i = skipDigits(s, start);
    frac = s.slice(start, i);
    if (!lax && frac === "") return null;
  }
  if (int === "" && frac === "") return null;
  let exp = "";
  if (i < s.length && (s[i] === "e" || s[i] === "E")) {
    start = i + 1;
    i = start;
    if (i < s.length && (s[i] === "+" || s[i] === "-")) i++;
    const digits = i;
    i = skipDigits(s, i);
    if (i === digits) return null;
    exp = s.slice(start, i);
  }
  return i === s.length ? { neg, int, frac, exp } : null;
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

const trimZeros = (s) => s.replace(/^0+/, "");

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
    if (/[^0]/.test(digits.slice(cut))) return null; // a fractional part
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
  return !/[.eE]/.test(s);
}

/** wholeDecimal: [+-]digits, optionally "." and only zeros, as a canonical integer literal. */
function wholeDecimal(s) {
  const d = parseDecimal(s, true);
  if (d === null || d.int === "" || d.exp !== "" || /[^0]/.test(d.frac)) return null;
  return integer({ ...d, frac: "" }, MAX_INT_DIGITS);
}

/** stripUnderscores: underscores removed unless one leads, trails or two are adjacent. */
function stripUnderscores(s) {
  if (!s.includes("_") || s[0] === "_" || s[s.length - 1] === "_" || s.includes("__")) return null;
  return s.replaceAll("_", "");
}

/** strAsInt: pydantic-core's str_as_int, as the canonical JSON integer literal, or null. */
function strAsInt(s) {
  // Go counts bytes, JS UTF-16 units: they differ only for a string that is not ASCII, which no
  // rule below accepts.
  if (s.length > MAX_INT_DIGITS) return null;
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
  const b = BOOL_WORDS.get(s.replace(/[A-Z]+/g, (w) => w.toLowerCase()));
  return b === undefined ? null : b;
}

/** zeroOrOne: the integer literal 0 (or -0) / 1 as false / true. */
function zeroOrOne(s) {
  if (s === "0" || s === "-0") return false;
  return s === "1" ? true : null;
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
  if (to !== null) return b !== null ? null : { value: numberOf(numText), from: "string", to }; // number or boolean: ambiguous
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
    return t === null ? null : { value: numberOf(t), from: "number", to: "integer" };
  }
  if (kinds & KIND.boolean) {
    const t = numberAsInt(s);
    const b = t === null ? null : zeroOrOne(t);
    if (b !== null) return { value: b, from: "number", to: "boolean" };
  }
  return null;
}
