import fetch, { type Response } from "node-fetch";
import { LlmError, type AttemptBudget, type ChatModel, type ChatRequest } from "./chat-model.js";
import { chatCompletionSchema, chatErrorSchema } from "./chat-completions-schema.js";
import { DEFAULT_RETRY, isRetryableStatus, retryDelayMs, type RetryPolicy } from "./retry-policy.js";

export interface OpenAiChatOptions {
  /** Base URL including the version prefix, e.g. https://api.openai.com/v1 (LLM_BASE_URL). */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Per attempt, headers and body included. */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  readonly temperature?: number;
  /** Injected so tests need not wait real backoff time. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function short(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** OpenAI-compatible `POST {base}/chat/completions` over node-fetch, with timeout and retries. */
export class OpenAiChatModel implements ChatModel {
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: OpenAiChatOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.sleep = options.sleep ?? realSleep;
  }

  async complete(request: ChatRequest, budget?: AttemptBudget): Promise<string> {
    const body = JSON.stringify({
      model: this.options.model,
      messages: request.messages,
      temperature: this.options.temperature ?? 0.2,
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
      ...(request.json ? { response_format: { type: "json_object" } } : {}),
    });
    let last: LlmError = new LlmError("network", "no attempt made");
    for (let attempt = 0; attempt <= this.retry.maxRetries; attempt++) {
      if (budget !== undefined && !budget.tryTake()) throw new LlmError("budget", "call budget of the session is spent");
      const outcome = await this.attempt(body);
      if (typeof outcome === "string") return outcome;
      last = outcome.error;
      if (!outcome.retry || attempt === this.retry.maxRetries) break;
      await this.sleep(retryDelayMs(this.retry, attempt, outcome.retryAfter));
    }
    throw last;
  }

  private async attempt(body: string): Promise<string | { error: LlmError; retry: boolean; retryAfter: string | null }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body,
        signal: controller.signal,
      });
      text = await res.text();
    } catch (err) {
      const timedOut = controller.signal.aborted;
      const error = timedOut
        ? new LlmError("timeout", `no complete reply within ${this.timeoutMs} ms`)
        : new LlmError("network", `request failed: ${err instanceof Error ? err.message : String(err)}`);
      return { error, retry: true, retryAfter: null };
    } finally {
      clearTimeout(timer);
    }

    if (!res.ok) {
      const parsed = safeJson(text);
      const detail = chatErrorSchema.safeParse(parsed);
      const message = detail.success && detail.data.error.message ? detail.data.error.message : short(text);
      const kind = res.status === 429 ? "rate_limited" : res.status >= 500 ? "server" : "client";
      return {
        error: new LlmError(kind, `provider answered ${res.status}: ${message}`, res.status),
        retry: isRetryableStatus(res.status),
        retryAfter: res.headers.get("retry-after"),
      };
    }
    const envelope = chatCompletionSchema.safeParse(safeJson(text));
    const content = envelope.success ? envelope.data.choices[0]?.message.content : undefined;
    if (typeof content !== "string" || content.trim() === "") {
      // A 200 whose body is not a chat completion is a provider fault; asking again may help once.
      return { error: new LlmError("malformed_envelope", `not a chat completion: ${short(text)}`, res.status), retry: true, retryAfter: null };
    }
    return content;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
