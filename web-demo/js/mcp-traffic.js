// The traffic view: the JSON-RPC messages between this page and each MCP server (requests,
// responses, the server's notifications: progress, logs, list changes; its requests), newest
// first, secrets masked, images rendered. toolgate has no message tap, and needs none for this:
// its full build sends every MCP request with the page's fetch, so the playground wraps fetch
// (for the URLs of the servers it connects, nothing else) and reads a clone of each answer. The
// same wrapper lets the page stop a server's requests (the connect timeout, Cancel).
import { el, pretty } from "./ui.js";

/** The most messages kept per server; older ones are dropped. */
export const TRAFFIC_LIMIT = 300;
const MASK = "•••";
const SECRET_HEADER = /auth|token|key|secret|cookie|session|dpop|password/i;
const SECRET_FIELD = /^(access_token|refresh_token|id_token|client_secret|code_verifier|password|token|api[_-]?key|authorization|assertion)$/i;
const IMAGE = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;

const servers = new Map(); // name -> {name, origin, path, secrets, headerNames, ctrl, pending: Map(id -> method), list, count, group}
let root = null; // the view's container
let installed = false;

/** The server a request URL is for: the one whose URL it is, else the latest of its origin (an SSE POST endpoint). */
function serverFor(url) {
  let u;
  try {
    u = new URL(url, location.href);
  } catch {
    return null;
  }
  const all = [...servers.values()].reverse();
  return all.find((s) => s.origin === u.origin && s.path === u.pathname) ?? all.find((s) => s.origin === u.origin) ?? null;
}

/** text with every secret value of s replaced by the mask. */
function scrub(s, text) {
  let out = text;
  for (const v of s.secrets) if (v.length >= 4) out = out.split(v).join(MASK);
  return out.replace(/\b(Bearer|DPoP)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${MASK}`);
}

/** A deep copy of value with secret fields masked, secret values scrubbed and base64 data shortened. */
function masked(s, value, key = "") {
  if (typeof value === "string") {
    if (SECRET_FIELD.test(key)) return MASK;
    if (key === "data" && value.length > 120) return `(${Math.round((value.length * 3) / 4)} bytes of base64)`;
    return scrub(s, value);
  }
  if (Array.isArray(value)) return value.map((v) => masked(s, v));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(s, v, k)]));
  return value;
}

/** The request headers as "Name: value" lines, secret values masked. */
function headerLines(s, headers) {
  const out = [];
  headers.forEach((v, k) => {
    const secret = SECRET_HEADER.test(k) || s.headerNames.has(k.toLowerCase());
    out.push(`${k}: ${secret ? MASK : scrub(s, v)}`);
  });
  return out;
}

/** The images a message carries (content items of type image), as <img> elements. */
function images(msg) {
  const found = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      if (v.type === "image" && typeof v.data === "string" && IMAGE.test(v.mimeType ?? "")) found.push(v);
      else Object.values(v).forEach(walk);
    }
  };
  walk(msg);
  return found.map((img) => el("img", { class: "mcp-traffic-image", src: `data:${img.mimeType};base64,${img.data}`, alt: `An image (${img.mimeType}) in the message` }));
}

/** What a JSON-RPC message is: request, notification, response, error or server request (a request the server sends). */
function kindOf(msg, out) {
  if (msg.method) return msg.id === undefined ? "notification" : out ? "request" : "server-request";
  return msg.error ? "error" : "response";
}

/** Adds one entry to s's list (newest first), dropping the oldest past TRAFFIC_LIMIT. */
function add(s, { out, kind, method, id, text, extra = [] }) {
  s.count += 1;
  const time = new Date().toISOString().slice(11, 23);
  const arrow = out ? "→" : "←";
  const label = `${arrow} ${kind}${method ? ` ${method}` : ""}${id !== undefined ? ` #${id}` : ""}`;
  const entry = el("li", { class: "mcp-traffic-entry", dataset: { kind, method: method ?? "", dir: out ? "out" : "in" } },
    el("details", {}, el("summary", {}, el("code", {}, label), el("span", { class: "hint" }, ` ${time}`)),
      extra, el("pre", { class: "out", role: "region", tabindex: "0", "aria-label": label }, text)));
  s.list.prepend(entry);
  while (s.list.children.length > TRAFFIC_LIMIT) s.list.lastChild.remove();
  s.counter.textContent = ` ${s.count} message${s.count === 1 ? "" : "s"}`;
}

/** Records a JSON-RPC message (or a batch) of s; out is true for what the page sent. */
function message(s, msg, out, extra = []) {
  if (Array.isArray(msg)) return msg.forEach((m) => message(s, m, out));
  if (!msg || typeof msg !== "object") return;
  const kind = kindOf(msg, out);
  if (kind === "request" && msg.id !== undefined) s.pending.set(msg.id, msg.method);
  const method = msg.method ?? s.pending.get(msg.id);
  add(s, { out, kind, method, id: msg.id, text: pretty(masked(s, msg)), extra: [...extra, ...images(msg)] });
}

/** Reads a clone of an answer: JSON, or an SSE stream message by message. */
async function readAnswer(s, res) {
  const type = res.headers.get("content-type") || "";
  if (type.includes("application/json")) {
    try {
      message(s, JSON.parse(await res.text()), false);
    } catch {
      // not JSON after all: the call's own error says so
    }
    return;
  }
  if (!type.includes("text/event-stream") || !res.body) return;
  const reader = res.body.getReader();
  s.readers.add(reader);
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let at;
      while ((at = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
        if (!data) continue;
        try {
          message(s, JSON.parse(data), false);
        } catch {
          // an SSE event that is not JSON-RPC (an SSE endpoint event): not a message
        }
      }
    }
  } catch {
    // the stream was closed or aborted: what arrived is shown
  } finally {
    s.readers.delete(reader);
  }
}

/** Wraps the page's fetch once: requests to a watched server are recorded and can be stopped. */
export function installTap() {
  if (installed) return;
  installed = true;
  const original = window.fetch.bind(window);
  window.fetch = function tappedFetch(input, init = {}) {
    const url = typeof input === "string" ? input : input?.url ?? String(input);
    const s = serverFor(url);
    if (!s) return original(input, init);
    const method = (init.method || "GET").toUpperCase();
    const headers = new Headers(init.headers);
    let body;
    try {
      body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    } catch {
      body = undefined;
    }
    const rpc = body?.jsonrpc || (Array.isArray(body) && body[0]?.jsonrpc);
    const stream = method === "GET" && /event-stream/.test(headers.get("accept") || "");
    // OAuth metadata and token requests are not MCP messages: passed through unseen
    if (!rpc && !stream && method !== "DELETE") return original(input, init);
    const signal = init.signal ? AbortSignal.any([init.signal, s.ctrl.signal]) : s.ctrl.signal;
    const extra = [el("p", { class: "hint mcp-traffic-headers" }, `${method} ${scrub(s, new URL(url, location.href).pathname)}`), el("ul", { class: "mcp-traffic-headers" }, headerLines(s, headers).map((h) => el("li", {}, el("code", {}, h))))];
    if (rpc) message(s, body, true, extra);
    else add(s, { out: true, kind: stream ? "stream" : "close", method: stream ? "GET (the server's stream)" : "DELETE (session end)", text: "(no body)", extra });
    const answer = original(input, { ...init, signal });
    answer.then((res) => {
      if (!res.ok) add(s, { out: false, kind: "http", method: `HTTP ${res.status}`, text: `${res.status} ${res.statusText}` });
      else readAnswer(s, res.clone());
    }, (e) => add(s, { out: false, kind: "failed", method: method, text: e?.name === "AbortError" ? "stopped by the page (or toolgate)" : String(e?.message || e) }));
    return answer;
  };
}

/** The group of one server in the view. */
function groupOf(s) {
  s.list = el("ol", { class: "mcp-traffic-list", reversed: true, "aria-label": `Messages of ${s.name}, newest first` });
  s.counter = el("span", { class: "hint" }, " 0 messages");
  return el("li", { class: "mcp-traffic-server", dataset: { server: s.name } },
    el("details", { open: true }, el("summary", {}, el("h4", {}, "Server ", el("code", {}, s.name), s.counter)), s.list));
}

/**
 * Records the traffic of server name at url from now on (replacing an earlier one of that name);
 * headers are the config's (their values, and every value of a secret-looking header, are masked).
 */
export function watch(name, url, headers = {}) {
  stop(name);
  let u;
  try {
    u = new URL(url, location.href);
  } catch {
    return;
  }
  const s = { name, origin: u.origin, path: u.pathname, secrets: Object.values(headers).filter(Boolean), headerNames: new Set(Object.keys(headers).map((k) => k.toLowerCase())), ctrl: new AbortController(), pending: new Map(), readers: new Set(), count: 0 };
  s.group = groupOf(s);
  servers.set(name, s);
  if (root) {
    root.list.append(s.group);
    root.node.hidden = false;
  }
}

/** Stops every request of server name under way (a connect given up) and forgets its traffic. */
export function stop(name) {
  const s = servers.get(name);
  if (!s) return;
  s.ctrl.abort(new DOMException("stopped by the page", "AbortError"));
  for (const r of s.readers) r.cancel().catch(() => {});
  s.group.remove();
  servers.delete(name);
  if (root) root.node.hidden = servers.size === 0;
}

/** Stops every request of server name under way (a connect given up or cancelled); its traffic stays shown. */
export function abortRequests(name) {
  const s = servers.get(name);
  if (!s) return;
  s.ctrl.abort(new DOMException("stopped by the page", "AbortError"));
  s.ctrl = new AbortController();
}

/** Forgets every server's traffic (after Disconnect). */
export function stopAll() {
  for (const name of [...servers.keys()]) stop(name);
}

/** The view: a collapsed section with one group per watched server. */
export function trafficView() {
  const list = el("ul", { class: "mcp-traffic", id: "mcp-traffic" });
  const node = el("details", { class: "mcp-traffic-view", id: "mcp-traffic-view", hidden: true },
    el("summary", {}, "Traffic (JSON-RPC messages, newest first)"),
    el("p", { class: "hint" }, "Every message between this page and each server: requests, answers, the server's notifications (progress, logs, list changes) and requests. Header values, tokens and secret fields are masked; images are shown. Read from the page's fetch, so nothing else sees it."),
    list);
  root = { node, list };
  for (const s of servers.values()) list.append(s.group);
  return node;
}
