// JSON text read as it streams in: an incremental reader that keeps, after every piece, which
// values are complete (their text will not change), which keys are known, and which containers and
// strings are still open. stream-calls.js judges a tool call's arguments from it before the stream
// ends. Node and browser.
import { MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH } from "./contract.js";

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const LITERALS = ["true", "false", "null"];

/** A JSON pointer's token for a key or index. */
function token(k) {
  return String(k).replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * One JSON value arriving in pieces. `push(text)` reads what it can; `error` is set (and reading
 * stops) at the first byte no continuation could make JSON, or past MAX_ARGUMENT_BYTES or
 * MAX_ARGUMENT_DEPTH. `complete` is true once the top value has ended. Piece boundaries may fall
 * anywhere, inside a string, an escape or a number. Node and browser. @internal
 */
export class PartialJSON {
  text = "";
  error = null;
  root = null;
  /** Bumped whenever a value or a key completes: what can be judged changed. */
  completions = 0;
  #pos = 0;
  #stack = []; // open containers, innermost last
  #tok = null; // the scalar (or key) being read: {node, esc, isKey, member}
  #bytes = 0;

  get complete() {
    return this.root !== null && this.root.done && this.#tok === null;
  }

  push(piece) {
    if (this.error || piece === "") return;
    this.#bytes += byteLength(piece);
    this.text += piece;
    if (this.#bytes > MAX_ARGUMENT_BYTES) {
      this.error = { at: this.text.length, keyword: "maxBytes", message: `the arguments are more than the limit of ${MAX_ARGUMENT_BYTES} bytes` };
      return;
    }
    while (this.#pos < this.text.length && !this.error) this.#step();
  }

  /** Reads one character (or finishes a number or literal on the one after it). */
  #step() {
    const c = this.text[this.#pos];
    if (this.#tok) {
      this.#scalar(c);
      return;
    }
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      this.#pos++;
      return;
    }
    const top = this.#stack.at(-1);
    if (!top) {
      if (this.root) return this.#fail("more text after the arguments' value");
      return this.#value(c, null, "");
    }
    if (top.kind === "object") this.#inObject(top, c);
    else this.#inArray(top, c);
  }

  #inObject(o, c) {
    switch (o.expect) {
      case "key":
        if (c === "}" && o.members.length === 0) return this.#close(o);
        if (c !== '"') return this.#fail(o.members.length === 0 ? "expected a key or }" : "expected a key");
        {
          const m = { key: undefined, keyStart: this.#pos, keyEnd: -1, value: null, path: "" };
          o.members.push(m);
          this.#tok = { node: { kind: "string", start: this.#pos, end: -1, done: false }, esc: false, isKey: true, member: m };
          this.#pos++;
        }
        return;
      case "colon":
        if (c !== ":") return this.#fail("expected : after a key");
        o.expect = "value";
        this.#pos++;
        return;
      case "value": {
        const m = o.members.at(-1);
        return this.#value(c, m, m.path);
      }
      default: // "comma"
        if (c === ",") {
          o.expect = "key";
          o.afterComma = true;
          this.#pos++;
          return;
        }
        if (c === "}") return this.#close(o);
        return this.#fail("expected , or }");
    }
  }

  #inArray(a, c) {
    if (a.expect === "comma") {
      if (c === ",") {
        a.expect = "value";
        a.afterComma = true;
        this.#pos++;
        return;
      }
      if (c === "]") return this.#close(a);
      return this.#fail("expected , or ]");
    }
    if (c === "]" && !a.afterComma) return this.#close(a);
    this.#value(c, null, `${a.path}/${a.items.length}`);
  }

  /** Starts the value whose first character is c, at path, as member m's value or the next item. */
  #value(c, m, path) {
    let node;
    if (c === "{" || c === "[") {
      if (this.#stack.length >= MAX_ARGUMENT_DEPTH) {
        this.error = { at: this.#pos, keyword: "maxDepth", message: `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels` };
        return;
      }
      node = c === "{" ? { kind: "object", members: [], expect: "key" } : { kind: "array", items: [], expect: "value" };
      Object.assign(node, { start: this.#pos, end: -1, done: false, path, afterComma: false });
      this.#attach(node, m);
      this.#stack.push(node);
      this.#pos++;
      return;
    }
    if (c === '"') node = { kind: "string" };
    else if (c === "-" || (c >= "0" && c <= "9")) node = { kind: "number" };
    else if (c === "t" || c === "f" || c === "n") node = { kind: "literal" };
    else return this.#fail(`unexpected character ${JSON.stringify(c)} where a value belongs`);
    Object.assign(node, { start: this.#pos, end: -1, done: false, path });
    this.#attach(node, m);
    this.#tok = { node, esc: false, isKey: false, member: m };
    this.#pos++;
  }

  #attach(node, m) {
    const top = this.#stack.at(-1);
    if (!top) this.root = node;
    else if (top.kind === "object") m.value = node;
    else top.items.push(node);
  }

  /** One character of the scalar being read. */
  #scalar(c) {
    const t = this.#tok;
    const n = t.node;
    if (n.kind === "string") {
      this.#pos++;
      if (t.esc) t.esc = false;
      else if (c === "\\") t.esc = true;
      else if (c === '"') return this.#endScalar(this.#pos);
      else if (c < " ") return this.#fail("a control character inside a string");
      return;
    }
    const more = n.kind === "number" ? /[0-9eE.+-]/.test(c) : c >= "a" && c <= "z";
    if (more) {
      this.#pos++;
      if (n.kind === "literal" && !LITERALS.some((w) => w.startsWith(this.text.slice(n.start, this.#pos)))) this.#fail("not true, false or null");
      return;
    }
    this.#endScalar(this.#pos); // c is read again as what follows the scalar
  }

  #endScalar(end) {
    const t = this.#tok;
    const n = t.node;
    const raw = this.text.slice(n.start, end);
    if (n.kind === "number" && !NUMBER.test(raw)) return this.#fail(`${raw} is not a JSON number`);
    if (n.kind === "literal" && !LITERALS.includes(raw)) return this.#fail(`${raw} is not true, false or null`);
    if (n.kind === "string") {
      try {
        n.value = JSON.parse(raw);
      } catch {
        return this.#fail("a string with a bad escape");
      }
    }
    n.end = end;
    n.done = true;
    this.#tok = null;
    this.completions++;
    const top = this.#stack.at(-1);
    if (t.isKey) {
      const m = t.member;
      m.key = n.value;
      m.keyEnd = end;
      m.path = `${top.path}/${token(m.key)}`;
      top.expect = "colon";
    } else if (top) top.expect = "comma";
  }

  #close(node) {
    this.#pos++;
    node.end = this.#pos;
    node.done = true;
    this.#stack.pop();
    this.completions++;
    const top = this.#stack.at(-1);
    if (top) top.expect = "comma";
  }

  #fail(what) {
    this.error = { at: this.#pos, keyword: "json", message: `${what} at offset ${this.#pos}` };
  }

  /** The string value being read and its path, when one is (its text so far, decoded), else null. */
  openString() {
    const t = this.#tok;
    if (!t || t.isKey || t.node.kind !== "string") return null;
    let raw = this.text.slice(t.node.start + 1, this.#pos);
    for (let cut = 0; cut <= 6 && raw.length > 0; cut++) {
      try {
        return { path: t.node.path, prefix: JSON.parse(`"${raw}"`) };
      } catch {
        raw = raw.slice(0, -1); // an escape cut by the piece's end
      }
    }
    return { path: t.node.path, prefix: "" };
  }

  /**
   * The JSON text of what is known: complete values as they were sent, open containers with their
   * complete members and items, a known key whose value is not complete as `null` (or as
   * `override[path]`, a JSON text). `marks` collects the paths of complete values (`done`), of keys
   * whose value is not (`keyOnly`) and of open containers (`open`).
   */
  skeleton(override = {}) {
    const marks = { done: new Set(), keyOnly: new Set(), open: new Set() };
    const text = this.root ? this.#skel(this.root, override, marks) : "{}";
    return { text, marks };
  }

  #skel(n, override, marks) {
    if (n.done) {
      marks.done.add(n.path);
      return this.text.slice(n.start, n.end);
    }
    marks.open.add(n.path);
    if (n.kind === "object") {
      const parts = [];
      for (const m of n.members) {
        if (m.keyEnd < 0) continue;
        const key = this.text.slice(m.keyStart, m.keyEnd);
        const v = m.value;
        if (v && (v.done || v.kind === "object" || v.kind === "array")) {
          if (!v.done) marks.keyOnly.add(m.path);
          parts.push(`${key}:${this.#skel(v, override, marks)}`);
        } else {
          marks.keyOnly.add(m.path);
          parts.push(`${key}:${override[m.path] ?? "null"}`);
        }
      }
      return `{${parts.join(",")}}`;
    }
    if (n.kind === "array") {
      const parts = [];
      for (const v of n.items) {
        if (v.done || v.kind === "object" || v.kind === "array") parts.push(this.#skel(v, override, marks));
        else if (override[v.path] !== undefined) parts.push(override[v.path]);
      }
      return `[${parts.join(",")}]`;
    }
    return override[n.path] ?? "null"; // an open scalar at the top
  }
}

/** UTF-8 bytes of a string (a lone surrogate counted as 2). */
function byteLength(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return n;
}
