// The OAuth provider of the MCP panel: dynamic registration with this page's oauth-callback.html
// as redirect_uri, the authorization in a popup window, and the redirect handed back by
// postMessage (this origin, that window only). A blocked popup gets a button to open it.
import { el } from "./ui.js";

/** The redirect_uri: the callback page next to the playground. */
export const REDIRECT_URL = new URL("oauth-callback.html", location.href).href;

/** Waits for the callback page in popup to post its URL; rejects when the window closes first or signal aborts. */
function awaitRedirect(popup, signal) {
  return new Promise((resolve, reject) => {
    const stop = () => {
      removeEventListener("message", onMessage);
      clearInterval(poll);
      signal.removeEventListener("abort", onAbort);
    };
    const onMessage = (e) => {
      if (e.origin !== location.origin || e.source !== popup || e.data?.type !== "toolgate-oauth-redirect") return;
      stop();
      popup.close();
      resolve(String(e.data.url));
    };
    const onAbort = () => {
      stop();
      popup.close();
      reject(new Error("the sign-in was cancelled"));
    };
    // the user may close the window without finishing (no message comes then)
    const poll = setInterval(() => {
      if (popup.closed) {
        stop();
        reject(new Error("the sign-in window was closed before it finished"));
      }
    }, 500);
    addEventListener("message", onMessage);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Opens url in a popup; when the browser blocks it, shows a button in notice that opens it on a click. */
function openPopup(url, notice, signal) {
  const features = "popup,width=520,height=700";
  const popup = window.open(url, "toolgate-oauth", features);
  if (popup) return Promise.resolve(popup);
  return new Promise((resolve, reject) => {
    const button = el("button", { type: "button", class: "primary" }, "Open the sign-in window");
    const box = el("div", { class: "verdict warn" }, el("p", {}, "The browser blocked the sign-in window. Open it yourself:"), button);
    button.addEventListener("click", () => {
      const p = window.open(url, "toolgate-oauth", features);
      if (!p) return;
      box.remove();
      resolve(p);
    });
    signal.addEventListener("abort", () => {
      box.remove();
      reject(new Error("the sign-in was cancelled"));
    }, { once: true });
    notice.append(box);
    button.focus();
  });
}

/**
 * A new McpAuthProvider for one connection: tokens and the registration stay in memory (toolgate's
 * default); the user signs in in a popup. say(text) tells the panel what is happening.
 */
export function popupAuth(notice, say) {
  return {
    redirectUrl: REDIRECT_URL,
    clientMetadata: { client_name: "toolgate playground", redirect_uris: [REDIRECT_URL] },
    async redirectToAuthorization(url, { signal }) {
      say(`The server asks you to sign in at ${url.origin}: finish in the popup window.`);
      const popup = await openPopup(url.href, notice, signal);
      const redirect = await awaitRedirect(popup, signal);
      say("Signed in; connecting…");
      return redirect;
    },
  };
}
