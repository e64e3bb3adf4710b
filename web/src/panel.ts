import { MarketIntelClient } from "../../sdk/client.js";
import { ApiRequestError } from "../../sdk/errors.js";
import type { Access } from "../../sdk/endpoints.js";
import { el, labelTableCells } from "./dom.js";
import { tierAllows, tierName, type KeySession } from "./key-session.js";
import type { Tier } from "../../sdk/types.js";

/** What a panel renders, and the seconds until its data may change (cache_ttl_seconds). */
export interface Loaded<T> {
  readonly data: T;
  readonly ttlSeconds: number | null;
}

export interface PanelDef<T> {
  readonly id: string;
  readonly title: string;
  readonly access: Access;
  readonly load: (client: MarketIntelClient) => Promise<Loaded<T>>;
  /** Optional inputs shown under the heading (e.g. an asset picker); `reload` refetches this panel. */
  readonly controls?: (reload: () => void) => HTMLElement;
  /** Fills `body`; may return a clean-up (charts hold canvases and listeners). */
  readonly render: (body: HTMLElement, data: T) => (() => void) | void;
}

export type PanelState = "loading" | "ok" | "notice" | "locked";

// Refresh bounds: never faster than 15 s, never staler than 10 min. Keyed panels also respect
// the daily quota (Free 100, Basic 1,000, Pro 10,000 calls a day): an open tab must leave most
// of it to the visitor's own scripts. Hidden tabs do not refresh at all.
const MIN_REFRESH_S = 15;
// Quota an open tab spends an hour (the panels a tier unlocks; some make two calls a refresh):
// Free 30 (its 100 last over 3 h), Basic 60 (8 h spend 480 of its 1,000; at 120 s it was 204
// an hour, the whole quota in 5 h), Pro about 575 (8 h spend about 4,600 of its 10,000).
// Measured in test/e2e/dashboard.test.ts on the page's own clock.
const KEYED_MIN_REFRESH_S: Record<Tier, number> = { free: 600, basic: 600, pro: 60 };
const MAX_REFRESH_S = 600;
const DEFAULT_REFRESH_S = 60;
// A slow endpoint blocks only its own panel, and only this long.
const TIMEOUT_MS = 10_000;

/** One panel: loads on its own schedule, so a slow or missing endpoint never holds up the others. */
export class PanelRunner<T> {
  private readonly section: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly body: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private cleanup: (() => void) | void = undefined;
  private generation = 0;
  private shownAt: Date | null = null;

  constructor(
    private readonly def: PanelDef<T>,
    parent: HTMLElement,
    private readonly session: KeySession,
    private readonly baseUrl: string,
  ) {
    const headingId = `${def.id}-title`;
    const badge = def.access === "public" ? "Public" : `${tierName(def.access)} key`;
    this.notice = el("p", { class: "notice", role: "status", "aria-live": "polite" });
    this.body = el("div", { class: "panel-body" });
    this.section = el(
      "section",
      { class: "panel", id: def.id, "aria-labelledby": headingId, "data-state": "loading", "data-access": def.access },
      el("header", { class: "panel-head" }, el("h3", { id: headingId }, def.title), el("span", { class: `badge badge-${def.access}` }, badge)),
      def.controls ? def.controls(() => this.reload()) : null,
      this.notice,
      this.body,
    );
    parent.append(this.section);
    session.onChange(() => this.reload());
  }

  start(): void {
    void this.refresh();
  }

  reload(): void {
    this.clearBody();
    this.shownAt = null;
    void this.refresh();
  }

  private async refresh(): Promise<void> {
    clearTimeout(this.timer);
    const generation = ++this.generation;
    const { access } = this.def;
    const key = this.session.key;
    if (access !== "public") {
      if (key === null) {
        const how = access === "free" ? "paste one or generate a free key above" : "paste one above (see pricing below)";
        return this.lock(`Needs a ${tierName(access)} key: ${how}.`);
      }
      const tier = this.session.tier;
      if (tier && !tierAllows(tier, access)) return this.lock(`Needs the ${tierName(access)} tier; your key is ${tierName(tier)}. See pricing below.`);
    }
    this.section.setAttribute("aria-busy", "true");
    if (!this.shownAt) this.setNotice("loading", "Loading…");
    const client = new MarketIntelClient({ baseUrl: this.baseUrl, apiKey: access === "public" ? null : key, maxRetries: 0, timeoutMs: TIMEOUT_MS });
    try {
      const loaded = await this.def.load(client);
      if (generation !== this.generation) return;
      this.clearBody();
      this.cleanup = this.def.render(this.body, loaded.data);
      labelTableCells(this.body);
      this.shownAt = new Date();
      this.setNotice("ok", "");
      this.schedule(loaded.ttlSeconds ?? DEFAULT_REFRESH_S);
    } catch (err) {
      if (generation !== this.generation) return;
      this.fail(err);
    } finally {
      if (generation === this.generation) this.section.removeAttribute("aria-busy");
    }
  }

  private fail(err: unknown): void {
    const { text, retryS } = describe(err);
    if (this.shownAt) {
      // Keep the last good data on screen and say how old it is.
      this.setNotice("ok", `Showing data from ${this.shownAt.toLocaleTimeString()}; the latest refresh failed: ${text}`);
    } else {
      this.setNotice("notice", text);
    }
    if (retryS !== null) this.schedule(retryS);
  }

  private lock(text: string): void {
    this.clearBody();
    this.setNotice("locked", text);
  }

  private schedule(seconds: number): void {
    const tier = this.def.access === "public" ? null : (this.session.tier ?? "free");
    const floor = tier ? KEYED_MIN_REFRESH_S[tier] : MIN_REFRESH_S;
    const s = Math.min(MAX_REFRESH_S, Math.max(floor, seconds));
    this.timer = setTimeout(() => this.whenVisible(() => void this.refresh()), s * 1000);
  }

  /** Runs `fn` now, or when the tab is shown again: a background tab spends no quota. */
  private whenVisible(fn: () => void): void {
    if (!document.hidden) return fn();
    const generation = this.generation;
    const onShow = () => {
      if (document.hidden) return;
      document.removeEventListener("visibilitychange", onShow);
      // A key change meanwhile has already reloaded the panel.
      if (generation === this.generation) fn();
    };
    document.addEventListener("visibilitychange", onShow);
  }

  private setNotice(state: PanelState, text: string): void {
    this.section.dataset.state = state;
    this.notice.textContent = text;
    this.notice.hidden = text === "";
  }

  private clearBody(): void {
    if (this.cleanup) this.cleanup();
    this.cleanup = undefined;
    this.body.replaceChildren();
  }
}

/** A plain-language notice for a failure, and when to try again (null: only on a key change). */
export function describe(err: unknown): { readonly text: string; readonly retryS: number | null } {
  if (err instanceof ApiRequestError) {
    if (err.status === 503) return { text: `Not available yet: ${err.message}`, retryS: 60 };
    if (err.status === 403 && err.code === "tier_required") {
      const need = err.requiredTier;
      return { text: `Needs the ${need ?? "a higher"} tier. ${err.message}`, retryS: null };
    }
    if (err.status === 401) return { text: `The service refused this key (${err.code ?? "401"}): ${err.message}`, retryS: null };
    if (err.status === 429) return { text: `Limit reached: ${err.message}`, retryS: err.retryAfterSeconds ?? 300 };
    return { text: `The service answered ${err.status}: ${err.message}`, retryS: 60 };
  }
  const timedOut = err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError");
  return { text: timedOut ? "The service took too long to answer; retrying shortly." : "Could not reach the service; retrying shortly.", retryS: 30 };
}
