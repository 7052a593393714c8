// The server's elicitation requests (elicitation/create, form mode) as a form built from the
// requestedSchema, answered accept (with the values), decline or cancel.
import { el } from "./ui.js";

let forms = 0;

/** One field for a flat schema property: {node, read()} (read gives undefined for "left out"). */
function field(key, prop, required, n) {
  const id = `mcp-elicit-${n}-${key}`.replace(/[^\w-]/g, "_");
  const named = prop.title && prop.title !== key ? `${prop.title} (${key})` : key;
  const label = `${named}${required ? ", required" : ""}`;
  const desc = prop.description ? el("span", { class: "hint" }, prop.description) : "";
  const choices = prop.enum || prop.oneOf?.map((o) => o.const) || null;
  if (prop.type === "boolean") {
    const box = el("input", { type: "checkbox", id, checked: prop.default === true });
    return { node: el("div", { class: "field" }, el("label", {}, box, label), desc), read: () => box.checked };
  }
  if (prop.type === "array" && (prop.items?.enum || prop.items?.anyOf)) {
    const values = prop.items.enum || prop.items.anyOf.map((o) => o.const);
    const boxes = values.map((v) => el("input", { type: "checkbox", value: String(v), checked: (prop.default || []).includes(v) }));
    return {
      node: el("fieldset", { class: "field" }, el("legend", {}, label), desc, boxes.map((b, i) => el("label", {}, b, String(values[i])))),
      read: () => boxes.filter((b) => b.checked).map((b) => b.value),
    };
  }
  let input;
  if (choices) {
    input = el("select", { id }, required ? "" : el("option", { value: "" }, "(none)"), choices.map((c, i) => el("option", { value: String(c) }, prop.oneOf?.[i]?.title || prop.enumNames?.[i] || String(c))));
    if (prop.default !== undefined) input.value = String(prop.default);
  } else {
    const type = prop.type === "number" || prop.type === "integer" ? "number" : { email: "email", uri: "url", date: "date", "date-time": "datetime-local" }[prop.format] || "text";
    input = el("input", { type, id, required, step: prop.type === "integer" ? "1" : prop.type === "number" ? "any" : null, placeholder: prop.default !== undefined ? String(prop.default) : null });
  }
  const read = () => {
    if (input.value === "") return undefined;
    return prop.type === "number" || prop.type === "integer" ? Number(input.value) : input.value;
  };
  return { node: el("div", { class: "field" }, el("label", { class: "block" }, label, input), desc), read };
}

/**
 * An elicitation hook that shows each request in container as a form and resolves to the answer.
 * The form goes away when answered or when the server or the connection gives up (ctx.signal).
 */
export function elicitationHook(container) {
  return (params, { signal }) => new Promise((resolve) => {
    const n = ++forms;
    const props = params.requestedSchema?.properties || {};
    const required = new Set(params.requestedSchema?.required || []);
    const fields = Object.entries(props).map(([k, p]) => [k, field(k, p, required.has(k), n)]);
    const form = el("form", { class: "mcp-elicit schema-form", "aria-labelledby": `mcp-elicit-title-${n}` },
      el("h4", { id: `mcp-elicit-title-${n}` }, "The server asks"),
      el("p", {}, params.message || ""),
      fields.map(([, f]) => f.node));
    const done = (answer) => {
      form.remove();
      signal.removeEventListener("abort", onAbort);
      resolve(answer);
    };
    const onAbort = () => done({ action: "cancel" });
    const accept = el("button", { type: "submit", class: "primary" }, "Accept");
    form.append(el("div", { class: "row" }, accept,
      el("button", { type: "button", onclick: () => done({ action: "decline" }) }, "Decline"),
      el("button", { type: "button", onclick: () => done({ action: "cancel" }) }, "Cancel")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const content = {};
      for (const [k, f] of fields) {
        const v = f.read();
        if (v !== undefined) content[k] = v;
      }
      done({ action: "accept", content });
    });
    signal.addEventListener("abort", onAbort, { once: true });
    container.append(form);
    form.scrollIntoView({ block: "nearest" });
    form.querySelector("input, select, button")?.focus();
  });
}
