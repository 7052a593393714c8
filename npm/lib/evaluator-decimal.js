// Exact decimal arithmetic on JSON number literals (issue 23): the port of core/fastpath_number.go
// the evaluator uses wherever comparing doubles would not give the answer Go gives on the digits
// (a literal spelled "1.50" or "1e2", 20-digit integers, bounds a double cannot hold). Node and
// browser.

/** The saturation of exponents (Go's maxDecimalExp), far beyond any number checked. */
const MAX_EXP = 1 << 20;

/**
 * A JSON number literal as {neg, digits, exp}: sign × digits × 10^exp, the digit run without its
 * leading and trailing zeros ("" for zero). @internal
 */
export function parseDecimal(s) {
  let i = 0;
  let neg = false;
  if (s.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  let start = i;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  let run = s.slice(start, i);
  let frac = 0;
  if (s.charCodeAt(i) === 46) {
    start = ++i;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    frac = i - start;
    run += s.slice(start, i);
  }
  let exp = 0;
  const e = s.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    const negExp = s.charCodeAt(i) === 45;
    if (negExp || s.charCodeAt(i) === 43) i++;
    for (; i < s.length; i++) if (exp < MAX_EXP) exp = exp * 10 + (s.charCodeAt(i) - 48);
    if (negExp) exp = -exp;
  }
  exp -= frac;
  let a = 0;
  while (a < run.length && run.charCodeAt(a) === 48) a++;
  let b = run.length;
  while (b > a && run.charCodeAt(b - 1) === 48) b--;
  exp += run.length - b;
  const digits = run.slice(a, b);
  return { neg: neg && digits.length > 0, digits, exp };
}

function isDigit(c) {
  return c >= 48 && c <= 57;
}

/** Whether a decimal has no fractional part. @internal */
export function isIntegerDecimal(d) {
  return d.digits.length === 0 || d.exp >= 0;
}

/** Compares two decimals: -1, 0 or +1. @internal */
export function cmpDecimal(a, b) {
  const az = a.digits.length === 0;
  const bz = b.digits.length === 0;
  if (az && bz) return 0;
  if (az) return b.neg ? 1 : -1;
  if (bz) return a.neg ? -1 : 1;
  if (a.neg !== b.neg) return a.neg ? -1 : 1;
  const m = cmpMagnitude(a, b);
  return a.neg ? -m : m;
}

/** Compares |a| and |b|, both non-zero. */
function cmpMagnitude(a, b) {
  const pa = a.digits.length + a.exp;
  const pb = b.digits.length + b.exp;
  if (pa !== pb) return pa < pb ? -1 : 1;
  const n = Math.max(a.digits.length, b.digits.length);
  for (let i = 0; i < n; i++) {
    const x = i < a.digits.length ? a.digits.charCodeAt(i) : 48;
    const y = i < b.digits.length ? b.digits.charCodeAt(i) : 48;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether v / m is an integer (m > 0). @internal */
export function multipleOfDecimal(v, m) {
  if (v.digits.length === 0) return true;
  const k = v.exp - m.exp; // v / m = (V / M) × 10^k
  if (k < 0 && -k > 4 * MAX_EXP) return false;
  const V = BigInt(v.digits + "0".repeat(Math.max(k, 0)));
  const M = BigInt(m.digits + "0".repeat(Math.max(-k, 0)));
  return V % M === 0n;
}

/**
 * Whether a number literal's decimal exponent (its exponent less its fraction digits) is within
 * ±limit (core's exponentWithin). @internal
 */
export function exponentWithin(s, limit) {
  let i = 0;
  while (i < s.length && s[i] !== "." && s[i] !== "e" && s[i] !== "E") i++;
  let frac = 0;
  if (s[i] === ".") for (i++; i < s.length && isDigit(s.charCodeAt(i)); i++) frac++;
  let e = 0;
  let neg = false;
  if (i < s.length) {
    i++;
    if (s[i] === "+" || s[i] === "-") {
      neg = s[i] === "-";
      i++;
    }
    for (const sat = limit + frac + 1; i < s.length && e <= sat; i++) e = Math.min(e * 10 + (s.charCodeAt(i) - 48), sat);
  }
  const net = (neg ? -e : e) - frac;
  return net >= -limit && net <= limit;
}
