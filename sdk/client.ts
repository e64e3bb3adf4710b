import { errorFromBody } from "./errors.js";
import { backoffMs, isRetryable, parseRetryAfter } from "./retry.js";
import { ENDPOINTS } from "./endpoints.js";
import type {
  AgentPerformance,
  Asset,
  Candles,
  ChartingSignal,
  CouncilSession,
  GhostPerformance,
  GhostStats,
  Health,
  IssuedKey,
  CurrentKey,
  KeyRevoked,
  Message,
  Readiness,
  MacroCorrelation,
  RegimeCurrent,
  RegimeEvaluation,
  RegimeHistory,
  RegimeStats,
  SignalHistoryPage,
  SignalWeights,
  SignalsSnapshot,
  SolCouncil,
  TaoCouncil,
  TaoStatus,
  TrackRecords,
  Verdict,
  VerdictEvaluation,
  WebhookCreated,
  WebhookDeleted,
  WebhookDeliveries,
  WebhookEvent,
  WebhookList,
  WebhookSecretRotated,
  WebhookSubscription,
  WebhookTestResult,
} from "./types.js";

export interface ClientOptions {
  /** e.g. https://api.example.com (no trailing /v1). An empty string means same origin (browsers). */
  readonly baseUrl: string;
  /** Sent as X-API-Key. Keep it out of source code and logs. */
  readonly apiKey?: string | null;
  /** Attempts after the first one for retryable failures (default 2). */
  readonly maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once (default 60). */
  readonly maxRetryAfterSeconds?: number;
  /** Per-attempt timeout (default 15 000 ms). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  /** Injected in tests to observe waits without sleeping. */
  readonly sleep?: (ms: number) => Promise<void>;
}

type Query = Readonly<Record<string, string | number | undefined>>;

interface RequestOptions {
  readonly query?: Query;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/** A path template's `{id}` filled with an id, encoded so that it stays one path segment. */
const withId = (template: string, id: string): string => template.replace("{id}", encodeURIComponent(id));

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Typed client of the Market Intelligence API; works in Node 20+ and browsers (fetch only). */
export class MarketIntelClient {
  private readonly baseUrl: string;
  private readonly doFetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    // Bound so that browsers do not throw "Illegal invocation" for a detached window.fetch.
    this.doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** The key this client sends, so callers can tell clients apart (e.g. to share a request). */
  get apiKey(): string | null {
    return this.options.apiKey ?? null;
  }

  /** A client identical to this one but sending another key (or none). */
  withKey(apiKey: string | null): MarketIntelClient {
    return new MarketIntelClient({ ...this.options, apiKey });
  }

  async request<T>(method: "GET" | "POST" | "DELETE" | "PATCH", path: string, opts: RequestOptions = {}): Promise<T> {
    const url = this.url(path, opts.query);
    const maxRetries = this.options.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      let status: number | null = null;
      let retryAfter: number | null = null;
      let failure: unknown;
      try {
        const res = await this.attempt(method, url, opts);
        if (res.ok) return (await res.json()) as T;
        status = res.status;
        retryAfter = parseRetryAfter(res.headers.get("retry-after"));
        failure = errorFromBody(res.status, await readBody(res), retryAfter);
      } catch (err) {
        // A caller's own abort is final; anything else here is a network failure or our timeout.
        if (opts.signal?.aborted) throw err;
        failure = err;
      }
      const maxWait = this.options.maxRetryAfterSeconds ?? 60;
      const canRetry = attempt < maxRetries && isRetryable(method, status, retryAfter) && (retryAfter === null || retryAfter <= maxWait);
      if (!canRetry) throw failure;
      await this.sleep(retryAfter !== null ? retryAfter * 1000 : backoffMs(attempt, 500));
    }
  }

  health(): Promise<Health> {
    return this.get(ENDPOINTS.health.path);
  }

  /** Free key; shown once, so store it at once (5 per client IP in any 60 minutes). */
  generateKey(input: { readonly name: string; readonly email: string }): Promise<IssuedKey> {
    return this.request("POST", ENDPOINTS.generateKey.path, { body: input });
  }

  /** Liveness: the process answers (no dependency checked). */
  healthLive(): Promise<Health> {
    return this.get(ENDPOINTS.healthLive.path);
  }

  /**
   * Readiness: store and actor host checked. Not ready is a 503 whose body is the same readiness
   * report (an `ApiRequestError` with `code` null: read its `body`).
   */
  healthReady(): Promise<Readiness> {
    return this.get(ENDPOINTS.healthReady.path);
  }

  /**
   * A new key replaces this client's (same tier and quota); the old one stops at once (5
   * rotations per key lineage in a clock hour). Shown once: store it before anything else,
   * then use `withKey`. Never sent twice (see Retries).
   */
  rotateKey(): Promise<IssuedKey> {
    return this.request("POST", ENDPOINTS.rotateKey.path);
  }

  /**
   * This client's key: its tier and how much of today's quota is left. Counts as a call, but a
   * spent quota does not refuse it (30 a minute).
   */
  currentKey(): Promise<CurrentKey> {
    return this.get(ENDPOINTS.currentKey.path);
  }

  /** Deactivates this client's key for good; its webhooks stop with it. */
  revokeKey(): Promise<KeyRevoked> {
    return this.request("DELETE", ENDPOINTS.revokeKey.path);
  }

  /** Newsletter (3 requests per client IP in any hour); the answer is the same whether the address was new or not. */
  subscribeNewsletter(input: { readonly email: string; readonly name?: string | null }): Promise<Message> {
    return this.request("POST", ENDPOINTS.subscribeNewsletter.path, { body: input });
  }

  /** Registers an HTTPS endpoint (Basic and above, 5 per key). The secret is shown only in this answer. */
  createWebhook(input: { readonly url: string; readonly events: readonly WebhookEvent[] }): Promise<WebhookCreated> {
    return this.request("POST", ENDPOINTS.createWebhook.path, { body: input });
  }

  webhooks(): Promise<WebhookList> {
    return this.get(ENDPOINTS.webhooks.path);
  }

  deleteWebhook(id: string): Promise<WebhookDeleted> {
    return this.request("DELETE", withId(ENDPOINTS.deleteWebhook.path, id));
  }

  /** Pauses (false) or resumes (true) deliveries; resuming also clears the failure count. */
  setWebhookActive(id: string, isActive: boolean): Promise<WebhookSubscription> {
    return this.request("PATCH", withId(ENDPOINTS.setWebhookActive.path, id), { body: { is_active: isActive } });
  }

  /** Sends a signed `webhook.test` to one subscription, or to every active one of this key. */
  testWebhooks(id?: string): Promise<WebhookTestResult> {
    return this.request("POST", ENDPOINTS.testWebhooks.path, { body: id === undefined ? {} : { webhook_id: id } });
  }

  /**
   * A new secret; for 24 h deliveries carry a second Standard Webhooks signature made with the old
   * one (`verifyStandardWebhook` accepts either). `X-SERVICE-Signature` uses the new secret at once.
   * Shown once, and never sent twice (see Retries).
   */
  rotateWebhookSecret(id: string): Promise<WebhookSecretRotated> {
    return this.request("POST", withId(ENDPOINTS.rotateWebhookSecret.path, id));
  }

  webhookDeliveries(id: string): Promise<WebhookDeliveries> {
    return this.get(withId(ENDPOINTS.webhookDeliveries.path, id));
  }

  /** The latest TAO council verdict; asks for a session in the background if this 30-minute slot has none (Pro, 5 a minute). */
  runTaoCouncil(): Promise<TaoCouncil> {
    return this.request("POST", ENDPOINTS.runTaoCouncil.path);
  }

  verdict(): Promise<Verdict> {
    return this.get(ENDPOINTS.verdict.path);
  }

  regime(): Promise<RegimeCurrent> {
    return this.get(ENDPOINTS.regime.path);
  }

  regimeHistory(query: { readonly page?: number; readonly per_page?: number } = {}): Promise<RegimeHistory> {
    return this.get(ENDPOINTS.regimeHistory.path, query);
  }

  /** Ghost Trader win rate and P&L grouped by the regime at entry. */
  regimeStats(): Promise<RegimeStats> {
    return this.get(ENDPOINTS.regimeStats.path);
  }

  /** How often each BTC council agent's vote matched the outcome of closed Ghost trades. */
  agentPerformance(): Promise<AgentPerformance> {
    return this.get(ENDPOINTS.agentPerformance.path);
  }

  candles(query: { readonly asset: Asset; readonly interval?: "1h" | "4h" | "1d"; readonly limit?: number }): Promise<Candles> {
    return this.get(ENDPOINTS.candles.path, query);
  }

  chartingSignal(): Promise<ChartingSignal> {
    return this.get(ENDPOINTS.chartingSignal.path);
  }

  signals(): Promise<SignalsSnapshot> {
    return this.get(ENDPOINTS.signals.path);
  }

  signalHistory(query: { readonly signal_key?: string; readonly page?: number; readonly per_page?: number } = {}): Promise<SignalHistoryPage> {
    return this.get(ENDPOINTS.signalHistory.path, query);
  }

  signalWeights(query: { readonly regime?: string } = {}): Promise<SignalWeights> {
    return this.get(ENDPOINTS.signalWeights.path, query);
  }

  macroCorrelation(): Promise<MacroCorrelation> {
    return this.get(ENDPOINTS.macroCorrelation.path);
  }

  council(): Promise<CouncilSession> {
    return this.get(ENDPOINTS.council.path);
  }

  solCouncil(): Promise<SolCouncil> {
    return this.get(ENDPOINTS.solCouncil.path);
  }

  taoCouncil(): Promise<TaoCouncil> {
    return this.get(ENDPOINTS.taoCouncil.path);
  }

  taoStatus(): Promise<TaoStatus> {
    return this.get(ENDPOINTS.taoStatus.path);
  }

  trackRecord<A extends Asset>(asset: A): Promise<TrackRecords[A]> {
    return this.get(`/v1/${asset.toLowerCase()}/track-record`);
  }

  ghostStats(): Promise<GhostStats> {
    return this.get(ENDPOINTS.ghostStats.path);
  }

  /** One Ghost Trader's current sprint with its benchmarks (public, cached 300 s). */
  ghostPerformance(asset: Asset): Promise<GhostPerformance> {
    return this.get(ENDPOINTS.ghostPerformance.path, { asset });
  }

  /** Does the verdict know anything? Per-ruling forward returns, rank IC and reliability, walk-forward (Basic and above, cached 300 s). */
  verdictEvaluation(asset: Asset): Promise<VerdictEvaluation> {
    return this.get(ENDPOINTS.verdictEvaluation.path, { asset });
  }

  /** Forward volatility and return by regime, and what the regime adds over trailing volatility (Basic and above, cached 300 s). */
  regimeEvaluation(): Promise<RegimeEvaluation> {
    return this.get(ENDPOINTS.regimeEvaluation.path);
  }

  private get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>("GET", path, query ? { query } : {});
  }

  private url(path: string, query: Query | undefined): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ""}`;
  }

  private attempt(method: string, url: string, opts: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.options.apiKey) headers["x-api-key"] = this.options.apiKey;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 15_000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    return this.doFetch(url, {
      method,
      headers,
      signal,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
  }
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
