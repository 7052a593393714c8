// The evaluator's numbers (issue 23): a JSON number is a JS number when the text Go would read
// for it is exactly JSON.stringify of that number (always so for arguments given as JS objects),
// and a Num holding the literal as written otherwise ("5.0", "1e2", "0.10", digits a double
// cannot hold), so that every comparison and every lax conversion sees the spelling Go sees.
// Node and browser.

/** A JSON number literal whose spelling is not JSON.stringify of its double. @internal */
export class Num {
  /** @param {string} text a JSON number literal, as written */
  constructor(text) {
    this.text = text;
  }
}

/** The JSON literal Go reads for an evaluator number (a JS number or a Num). @internal */
export function numberText(v) {
  return typeof v === "number" ? JSON.stringify(v) : v.text;
}

/** Whether v is an evaluator number. @internal */
export function isNumber(v) {
  return typeof v === "number" || v instanceof Num;
}

/** The evaluator number for a JSON number literal: a JS number when its spelling is JSON.stringify's, else a Num. @internal */
export function numberOf(text) {
  const n = Number(text);
  return JSON.stringify(n) === text ? n : new Num(text);
}
