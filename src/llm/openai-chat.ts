import fetch, { FetchError, type Response } from "node-fetch";
import type { LlmAttemptRecord } from "./call-record.js";
import { LlmError, type AttemptBudget, type HourlyAllowance, type ChatModel, type ChatReply, type ChatRequest, type JsonReplyFormat } from "./chat-model.js";
import { chatCompletionSchema, chatErrorSchema } from "./chat-completions-schema.js";
import { DEFAULT_RETRY, isRetryableStatus, retryAfterMs, retryDelayMs, type RetryPolicy } from "./retry-policy.js";

/**
 * How a JSON reply is requested (LLM_RESPONSE_FORMAT). `json_schema`: OpenAI's structured output,
 * the reply's JSON Schema enforced by the provider (OpenAI, llama.cpp's llama-server, vLLM,
 * Ollama). `json_object`: only "some JSON object", for providers that reject `json_schema`; the
 * prompt describes the shape and zod still validates every reply.
 */
export type ResponseFormatMode = "json_schema" | "json_object";

/**
 * The field that caps a reply's tokens. `max_tokens` is what llama-server, vLLM, Ollama and
 * OpenAI's older chat models read; OpenAI's reasoning models (o-series, GPT-5) refuse it with
 * 400 `unsupported_parameter` and read `max_completion_tokens`.
 */
export type MaxTokensParam = "max_tokens" | "max_completion_tokens";

/** The temperature sent unless configured: low, for votes that follow the prompt's figures. */
export const DEFAULT_TEMPERATURE = 0.2;

export interface OpenAiChatOptions {
  /** Base URL including the version prefix, e.g. https://api.openai.com/v1 (LLM_BASE_URL). */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Per attempt, headers and body included. */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  /** Sampling temperature; "provider_default" sends none (models that accept only their own). */
  readonly temperature?: number | "provider_default";
  /** The request field that caps a reply (LLM_MAX_TOKENS_PARAM); default `max_tokens`. */
  readonly maxTokensParam?: MaxTokensParam;
  /** Added to every reply's cap: a reasoning model's hidden tokens count in it (LLM_REASONING_TOKENS). */
  readonly reasoningTokens?: number;
  readonly responseFormat?: ResponseFormatMode;
  /** Injected so tests need not wait real backoff time. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Taken before every attempt; none is made once it is spent (LLM_MAX_CALLS_PER_HOUR). */
  readonly hourlyAllowance?: HourlyAllowance;
  /** Told of every HTTP attempt, retries included: a question's record shows only how it ended. */
  readonly observeAttempt?: (attempt: LlmAttemptRecord) => void;
}

/** Per attempt: a small local model on a busy 2-core host needs up to ~30 s (DECISIONS 6). */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * The most a reply body may hold, counted after gzip is unpacked. A chat completion within the
 * replies' token caps is a few KB; a bigger body (a compromised provider, a gzip bomb) is refused
 * before it can fill the process's memory.
 */
export const MAX_REPLY_BYTES = 256 * 1024;

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function short(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function responseFormat(mode: ResponseFormatMode, reply: JsonReplyFormat): unknown {
  if (mode === "json_object") return { type: "json_object" };
  return { type: "json_schema", json_schema: { name: reply.name, strict: true, schema: reply.schema } };
}

type Attempt = ChatReply | { error: LlmError; retry: boolean; retryAfter: string | null };

/** OpenAI-compatible `POST {base}/chat/completions` over node-fetch, with timeout and retries. */
export class OpenAiChatModel implements ChatModel {
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly mode: ResponseFormatMode;

  constructor(private readonly options: OpenAiChatOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.sleep = options.sleep ?? realSleep;
    this.mode = options.responseFormat ?? "json_schema";
  }

  get modelName(): string {
    return this.options.model;
  }

  async complete(request: ChatRequest, budget?: AttemptBudget): Promise<ChatReply> {
    const body = JSON.stringify({
      model: this.options.model,
      messages: request.messages,
      ...this.sampling(),
      ...(request.maxTokens === undefined ? {} : { [this.options.maxTokensParam ?? "max_tokens"]: request.maxTokens + (this.options.reasoningTokens ?? 0) }),
      ...(request.reply ? { response_format: responseFormat(this.mode, request.reply) } : {}),
    });
    const deadlineAt = request.deadlineAt ?? Number.POSITIVE_INFINITY;
    let last: LlmError = new LlmError("network", "no attempt made");
    for (let attempt = 0; attempt <= this.retry.maxRetries; attempt++) {
      if (deadlineAt - Date.now() <= 0) throw new LlmError("deadline", `session time budget spent${attempt > 0 ? ` after ${last.kind}: ${last.message}` : ""}`);
      if (budget !== undefined && !budget.tryTake()) throw new LlmError("budget", "call budget of the session is spent");
      if (this.options.hourlyAllowance !== undefined) {
        const refused = await this.capRefusal(this.options.hourlyAllowance);
        if (refused !== null) throw refused;
      }
      // After the cap's store round trip: the attempt's timeout is what is left now.
      const left = deadlineAt - Date.now();
      if (left <= 0) throw new LlmError("deadline", "session time budget spent");
      const started = performance.now();
      const outcome = await this.attempt(body, Math.min(this.timeoutMs, left));
      const ms = Math.round(performance.now() - started);
      if (!("error" in outcome)) {
        this.options.observeAttempt?.({ model: this.options.model, outcome: "ok", status: 200, ms, retrying: false, reason: null });
        return outcome;
      }
      last = outcome.error;
      // A provider asking for longer than the cap is not asked again sooner than it said.
      const asked = retryAfterMs(outcome.retryAfter);
      const waitTooLong = outcome.retry && asked > this.retry.maxDelayMs;
      if (waitTooLong) {
        last = new LlmError(last.kind, `${last.message} (it asked for a wait of ${Math.ceil(asked / 1000)} s, longer than a retry waits: not asked again)`, last.status);
      }
      const delay = waitTooLong ? null : this.retryDelay(outcome, attempt, deadlineAt);
      this.options.observeAttempt?.({ model: this.options.model, outcome: last.kind, status: last.status, ms, retrying: delay !== null, reason: last.message });
      if (delay === null) break;
      await this.sleep(delay);
    }
    throw last;
  }

  /**
   * Null when the hourly cap has room for this attempt. A cap that cannot be read is spent, said as
   * such: the cap exists for the bill, and rule votes are the documented fallback.
   */
  private async capRefusal(allowance: HourlyAllowance): Promise<LlmError | null> {
    try {
      return (await allowance()) ? null : new LlmError("capped", "the hourly cap on model calls (LLM_MAX_CALLS_PER_HOUR) is spent");
    } catch (err) {
      // The error's name only: a store driver's message may quote its connection string.
      return new LlmError("capped", `the hourly cap on model calls (LLM_MAX_CALLS_PER_HOUR) could not be read from the store (${err instanceof Error ? err.name : "error"}): no call is made`);
    }
  }

  /** The wait before the next attempt, or null when there is none. */
  private retryDelay(outcome: { error: LlmError; retry: boolean; retryAfter: string | null }, attempt: number, deadlineAt: number): number | null {
    if (!outcome.retry || attempt === this.retry.maxRetries) return null;
    const delay = retryDelayMs(this.retry, attempt, outcome.retryAfter);
    // Waiting past the session's deadline would only end in a deadline error: stop now.
    return Date.now() + delay >= deadlineAt ? null : delay;
  }

  private sampling(): { temperature?: number } {
    const t = this.options.temperature ?? DEFAULT_TEMPERATURE;
    return t === "provider_default" ? {} : { temperature: t };
  }

  private async attempt(body: string, timeoutMs: number): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
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
        size: MAX_REPLY_BYTES,
      });
      text = await res.text();
    } catch (err) {
      return { error: this.transportError(err, controller.signal.aborted, timeoutMs), retry: true, retryAfter: null };
    } finally {
      clearTimeout(timer);
    }

    if (!res.ok) {
      const parsed = safeJson(text);
      const detail = chatErrorSchema.safeParse(parsed);
      const message = this.quote(detail.success && detail.data.error.message ? detail.data.error.message : text);
      const kind = res.status === 429 ? "rate_limited" : res.status >= 500 ? "server" : "client";
      return {
        error: new LlmError(kind, `provider answered ${res.status}: ${message}`, res.status),
        retry: isRetryableStatus(res.status),
        retryAfter: res.headers.get("retry-after"),
      };
    }
    const envelope = chatCompletionSchema.safeParse(safeJson(text));
    const choice = envelope.success ? envelope.data.choices[0] : undefined;
    const content = choice?.message.content;
    if ((typeof content !== "string" || content.trim() === "") && (isNonEmpty(choice?.message.refusal) || choice?.finish_reason === "content_filter")) {
      // The model's answer to this question, not a provider fault: asking again gets the same
      // answer, and other questions may still be answered. Its words are a reply: never logged.
      return { error: new LlmError("refused", `the model refused to answer (finish_reason ${choice?.finish_reason ?? "none"})`, res.status), retry: false, retryAfter: null };
    }
    const usage = envelope.success && envelope.data.usage ? { promptTokens: envelope.data.usage.prompt_tokens, completionTokens: envelope.data.usage.completion_tokens } : null;
    if (choice?.finish_reason === "length" && (typeof content !== "string" || content.trim() === "")) {
      // The reply's token cap ran out before any answer: a reasoning model spent it thinking.
      // Asking again spends it again; the cap is the operator's to raise.
      return {
        error: new LlmError("truncated", "the reply's token cap ran out before any answer (finish_reason length): raise LLM_REASONING_TOKENS for a reasoning model", res.status, usage),
        retry: false,
        retryAfter: null,
      };
    }
    if (!envelope.success || typeof content !== "string" || content.trim() === "") {
      // A 200 whose body is not a chat completion is a provider fault; asking again may help once.
      return { error: new LlmError("malformed_envelope", `not a chat completion: ${this.quote(text)}`, res.status), retry: true, retryAfter: null };
    }
    return { text: content, usage };
  }

  /**
   * Provider text as it may appear in an error, which is logged: the API key taken out (a
   * compatible server or a proxy in front of it may quote the key or the Authorization header
   * back), then cut to 200 characters.
   */
  private quote(text: string): string {
    const key = this.options.apiKey;
    return short(key ? text.split(key).join("[LLM_API_KEY]") : text);
  }

  /**
   * node-fetch's messages quote the request URL; the URL is configuration, not something a log
   * reader needs again on every failure, so it is replaced by its setting's name.
   */
  private transportError(err: unknown, aborted: boolean, timeoutMs: number): LlmError {
    if (aborted) return new LlmError("timeout", `no complete reply within ${timeoutMs} ms`);
    if (err instanceof FetchError && err.type === "max-size") {
      return new LlmError("malformed_envelope", `reply body over ${MAX_REPLY_BYTES} bytes`);
    }
    const message = err instanceof Error ? err.message : String(err);
    return new LlmError("network", `request failed: ${this.quote(message.split(this.url).join("LLM_BASE_URL/chat/completions"))}`);
  }
}

function isNonEmpty(text: string | null | undefined): boolean {
  return typeof text === "string" && text.trim() !== "";
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
