import { MarketIntelClient } from "../../sdk/client.js";
import { ApiRequestError } from "../../sdk/errors.js";
import { byId, el } from "./dom.js";
import { tierName, type KeySession } from "./key-session.js";

const HELD_IN_MEMORY = "The key is held in this page's memory only: reloading the page forgets it.";

/** Wires the key form and the free-key generator to the in-memory session. */
export function mountKeyBar(session: KeySession, baseUrl: string): void {
  const keyForm = byId<HTMLFormElement>("key-form");
  const keyInput = byId<HTMLInputElement>("api-key");
  const forget = byId<HTMLButtonElement>("forget-key");
  const status = byId<HTMLElement>("key-status");
  const genForm = byId<HTMLFormElement>("generate-form");
  const genButton = byId<HTMLButtonElement>("generate-submit");
  const issued = byId<HTMLElement>("issued-key");

  const showStatus = () => {
    const key = session.key;
    forget.hidden = key === null;
    if (key === null) {
      status.textContent = "No key: showing the public panels only.";
      return;
    }
    const tier = session.tier;
    status.textContent = `Using a ${tier ? tierName(tier) : "key of unknown tier"} key. ${HELD_IN_MEMORY}`;
    // Asked once per key set: a mistyped or revoked key is named here at once rather than by
    // each panel failing in turn, and the holder sees what is left of today's quota.
    new MarketIntelClient({ baseUrl, apiKey: key, maxRetries: 0 })
      .currentKey()
      .then((k) => {
        if (session.key !== key) return;
        status.textContent = `Using a ${tierName(k.tier)} key (${k.key_prefix}…): ${k.remaining_today.toLocaleString("en-US")} of ${k.daily_limit.toLocaleString("en-US")} calls left today at ${new Date().toISOString().slice(11, 16)} UTC (the panels spend calls as they refresh; the count starts afresh at 00:00 UTC). ${HELD_IN_MEMORY}`;
      })
      .catch((err: unknown) => {
        if (session.key !== key || !(err instanceof ApiRequestError) || err.status !== 401) return;
        status.textContent = `${err.message} Only the public panels will load: paste another key or generate a free one.`;
      });
  };
  session.onChange(showStatus);
  showStatus();

  keyForm.addEventListener("submit", (event) => {
    event.preventDefault();
    session.set(keyInput.value);
    // The field is cleared so the key is not left in the DOM for extensions or screenshots.
    keyInput.value = "";
  });
  forget.addEventListener("click", () => {
    session.set(null);
    issued.replaceChildren();
    keyInput.focus();
  });

  genForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(genForm);
    const name = String(data.get("name") ?? "").trim();
    const email = String(data.get("email") ?? "").trim();
    genButton.disabled = true;
    issued.replaceChildren(el("p", {}, "Generating…"));
    new MarketIntelClient({ baseUrl, maxRetries: 0 })
      .generateKey({ name, email })
      .then((key) => {
        session.set(key.api_key);
        const code = el("code", { id: "issued-key-value" }, key.api_key);
        const copy = el("button", { type: "button" }, "Copy key");
        copy.addEventListener("click", () => {
          void navigator.clipboard?.writeText(key.api_key).then(() => (copy.textContent = "Copied"));
        });
        issued.replaceChildren(
          el("p", { role: "status" }, `Your free key (${key.daily_limit} calls a day) — it is shown once and cannot be recovered, so copy it now:`),
          el("p", {}, code, " ", copy),
        );
        genForm.reset();
      })
      .catch((err: unknown) => {
        const text = err instanceof ApiRequestError ? (err.status === 422 ? "Please enter a name and a valid e-mail address." : err.message) : "Could not reach the service.";
        issued.replaceChildren(el("p", { role: "alert", class: "error" }, `Key not generated: ${text}`));
      })
      .finally(() => {
        genButton.disabled = false;
      });
  });
}
