import { Resolver } from "node:dns";
import { isIP } from "node:net";
import { compile as compileTrustedProxies } from "proxy-addr";
import { z } from "zod";
import { judgeAddress } from "../webhook-delivery/address-policy.js";
import { sealKeysSetting } from "../sealing/secret-sealer.js";

const bool = z
  .enum(["true", "false", "1", "0"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

/** A day (YYYY-MM-DD, a real calendar day) or a date-time with its zone: never one read in the machine's own zone. */
export function isIsoDayOrInstant(v: string): boolean {
  return z.iso.date().safeParse(v).success || z.iso.datetime({ offset: true }).safeParse(v).success;
}

/**
 * A number written in decimal, as an operator writes one. `z.coerce.number()` used JavaScript's
 * Number(), which also read "0x1F90" as port 8080 and " 1e3 " as 1000: a typo that still parses
 * is worse than one refused.
 */
function decimal<S extends z.ZodType<number>>(schema: S) {
  return z.preprocess((v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v), schema);
}

const number = () => z.number({ message: "must be a number" });
const positiveInt = decimal(number().int("must be an integer").positive("must be > 0"));

const storeUrl = z
  .string()
  // `sqlite:` alone would open an anonymous temporary database: everything written is lost at exit.
  .refine((v) => (v.startsWith("sqlite:") && v.trim().length > "sqlite:".length) || /^mongodb(\+srv)?:\/\//.test(v), {
    message: "must be sqlite:<path>, sqlite::memory: or mongodb://…",
  });

/**
 * Credentials in a URL would be written wherever the URL is (error messages, logs), and node-fetch
 * refuses them anyway: a provider's key goes in LLM_API_KEY.
 */
const httpUrl = z
  .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
  .refine(
    (v) => {
      // zod runs this even when the URL check above failed: an unparsable value is that check's to
      // report (new URL would throw, quoting the value, which can be a secret webhook URL).
      if (!URL.canParse(v)) return true;
      const u = new URL(v);
      return u.username === "" && u.password === "";
    },
    { message: "must not carry credentials (user:password@); use LLM_API_KEY for a provider's key" },
  );

/** What the mailer reads of SMTP_URL (src/notify/mailer.ts), read here first so a bad one stops the start by name. */
function smtpUrlReadable(v: string): boolean {
  if (!URL.canParse(v)) return false;
  const u = new URL(v);
  try {
    decodeURIComponent(u.username);
    decodeURIComponent(u.password);
  } catch {
    return false;
  }
  return u.hostname !== "";
}

/**
 * Whether LLM_API_KEY, sent as a bearer token to LLM_BASE_URL, stays off the public internet: an
 * https URL, or plain http to this machine or a private network (a loopback or private address,
 * a compose service's single-label name, a .local/.internal/.lan/.home.arpa name). Plain http to
 * a public host would hand the key to every hop on the way.
 */
function keyStaysPrivate(baseUrl: string): boolean {
  if (!URL.canParse(baseUrl)) return true; // LLM_BASE_URL's own check reports it
  const url = new URL(baseUrl);
  if (url.protocol === "https:") return true;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0) return !judgeAddress(host).allowed;
  return !host.includes(".") || /\.(localhost|local|internal|lan|home\.arpa)$/i.test(host);
}

/**
 * The consumers' own parsers decide what they accept, so a value they would refuse at start-up
 * stops the process here, named, instead of with a stack trace halfway through building it.
 */
function acceptedByExpress(value: string): boolean {
  if (value === "true" || value === "false" || /^\d+$/.test(value)) return true;
  try {
    compileTrustedProxies(value.split(",").map((s) => s.trim()));
    return true;
  } catch {
    return false;
  }
}

function acceptedByResolver(server: string): boolean {
  const port = /:(\d+)$/.exec(server.replace(/^\[[^\]]*\]/, ""))?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  try {
    new Resolver().setServers([server]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every setting the service reads, with its default (DECISIONS 1). The one place environment
 * variables are parsed: nothing else reads process.env.
 */
const settings = z.object({
  PORT: decimal(number().int().min(0).max(65535)).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  STORE_URL: storeUrl.default("sqlite:./data/mis.sqlite"),
  ACTOR_RUNTIME: z.enum(["local", "dapr"]).default("local"),
  DAPR_HTTP_PORT: decimal(number().int().min(1).max(65535)).default(3500),
  DAPR_HOST: z.string().min(1).default("127.0.0.1"),
  /**
   * Dapr's app API token: daprd sends it as `dapr-api-token` on every call to the app (actor
   * calls, reminders, pub/sub deliveries), and the app refuses those routes without it. Give
   * daprd the same value (its own APP_API_TOKEN variable).
   */
  APP_API_TOKEN: z.string().min(32, "must be at least 32 characters (e.g. 32 random bytes, hex)").optional(),
  MARKET_FEED: z.enum(["replay", "live"]).default("replay"),
  REPLAY_SPEED: decimal(number().positive("must be > 0")).default(60),
  /** A day (its 00:00 UTC) or an instant: the default itself is an hour, not a midnight. */
  REPLAY_START: z
    .string()
    .refine(isIsoDayOrInstant, {
      message: "must be an ISO date (YYYY-MM-DD) or date-time with its zone (e.g. 2026-03-23T07:00:00Z)",
    })
    .optional(),
  REPLAY_WARMUP_DAYS: decimal(number().int("must be a whole number of days").min(0).max(60)).default(14),
  LLM_BASE_URL: httpUrl.optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  // How a JSON reply is requested: json_schema (structured output, the default) or json_object
  // for providers that reject json_schema. Replies are zod-validated either way (docs/engines.md).
  LLM_RESPONSE_FORMAT: z.enum(["json_schema", "json_object"]).default("json_schema"),
  // Sampling and the reply cap as the provider's model accepts them (docs/engines.md): OpenAI's
  // reasoning models refuse `max_tokens` and every temperature but their own, and count their
  // hidden reasoning in `max_completion_tokens`.
  LLM_TEMPERATURE: z
    .union([z.literal("provider_default"), decimal(number().min(0, "must be 0..2").max(2, "must be 0..2"))], {
      message: "must be a number 0..2 or provider_default",
    })
    .default(0.2),
  LLM_MAX_TOKENS_PARAM: z.enum(["max_tokens", "max_completion_tokens"]).default("max_tokens"),
  LLM_REASONING_TOKENS: decimal(number().int("must be an integer").min(0).max(32_000)).default(0),
  LLM_TIMEOUT_MS: positiveInt.default(30_000),
  LLM_SESSION_BUDGET_MS: positiveInt.default(90_000),
  LLM_MAX_CONCURRENT_SESSIONS: positiveInt.default(1),
  /** HTTP attempts to the model per wall-clock hour, all replicas together; unset: no cap. */
  LLM_MAX_CALLS_PER_HOUR: positiveInt.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be smtp:// or smtps://")
    // Parsed here, not first by nodemailer halfway through start-up (a stack trace quoting the password).
    .refine(smtpUrlReadable, "must be smtp[s]://[user:password@]host[:port] with a valid host and port, and %-escapes that decode")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Market Intelligence <no-reply@localhost>"),
  OWNER_NOTIFY_URL: httpUrl.optional(),
  TRUST_PROXY: z
    .string()
    .refine(acceptedByExpress, "must be true, false, a hop count, or addresses/subnets/loopback/linklocal/uniquelocal, comma-separated")
    .default("false"),
  /** Accept TRUST_PROXY=true anyway (every client could then choose its IP through X-Forwarded-For). */
  TRUST_PROXY_FORCE: bool.default(false),
  /** Prometheus /metrics listens here, apart from the API (0: an ephemeral port); unset: not served. */
  METRICS_PORT: decimal(number().int().min(0).max(65535)).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /** Node's server limits (issue 19): a slow or idle client cannot hold a connection longer. */
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(5_000),
  HTTP_MAX_CONNECTIONS: positiveInt.default(1_024),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /** DNS servers (`ip` or `ip:port`, comma-separated) that resolve webhook hosts; unset: the system resolver. */
  WEBHOOK_DNS_SERVERS: z
    .string()
    .transform((v) => v.split(",").map((s) => s.trim()).filter((s) => s !== ""))
    .pipe(z.array(z.string().refine(acceptedByResolver, "must be ip, ip:port or [ipv6]:port with a valid address and port")).min(1))
    .optional(),
  /**
   * Keys that seal webhook signing secrets at rest (`id:base64-of-32-bytes`, comma-separated; the
   * first seals, all open). Unset: secrets are stored as issued. src/sealing/secret-sealer.ts.
   */
  WEBHOOK_SECRET_KEYS: sealKeysSetting.optional(),
  /**
   * Keys that seal personal data at rest (newsletter subscribers' addresses and names, a key's
   * owner name and address) and key the blind index subscribers and the per-mailbox and per-IP
   * counters are found by (same form; the first seals, all open). Unset: stored as given.
   * src/composition/personal-data.ts.
   */
  PERSONAL_DATA_KEYS: sealKeysSetting.optional(),
  RATE_LIMIT_FREE_PER_MINUTE: positiveInt.default(60),
  RATE_LIMIT_BASIC_PER_MINUTE: positiveInt.default(300),
  RATE_LIMIT_PRO_PER_MINUTE: positiveInt.default(1000),
  QUOTA_FREE_PER_DAY: positiveInt.default(100),
  QUOTA_BASIC_PER_DAY: positiveInt.default(1000),
  QUOTA_PRO_PER_DAY: positiveInt.default(10000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_BASE_URL: httpUrl.default("http://localhost:8080"),
  ENVIRONMENT: z.string().min(1).default("local"),
  MARKET_DATA_DIR: z.string().min(1).default("./market-data"),
});

export const envSchema = settings
  .refine((c) => c.TRUST_PROXY !== "true" || c.TRUST_PROXY_FORCE, {
    path: ["TRUST_PROXY"],
    message: "true lets any client choose its IP through X-Forwarded-For; give the hop count (e.g. 1) or the proxies' addresses, or set TRUST_PROXY_FORCE=true",
  })
  .refine((c) => c.ACTOR_RUNTIME !== "dapr" || c.APP_API_TOKEN !== undefined, {
    path: ["APP_API_TOKEN"],
    message:
      "ACTOR_RUNTIME=dapr needs it: daprd's callbacks (actor calls, reminders, pub/sub) arrive on the API port, and without the token anyone who reaches that port could make them; give daprd the same APP_API_TOKEN",
  })
  // Half a provider would silently mean judiciary mode: an operator who set any of the three meant a model.
  .refine((c) => c.LLM_MODEL !== undefined || (c.LLM_BASE_URL === undefined && c.LLM_API_KEY === undefined), {
    path: ["LLM_MODEL"],
    message: "must be set with LLM_BASE_URL (and LLM_API_KEY): without it the councils would run without a model; unset all three for judiciary mode",
  })
  .refine((c) => c.LLM_BASE_URL !== undefined || (c.LLM_MODEL === undefined && c.LLM_API_KEY === undefined), {
    path: ["LLM_BASE_URL"],
    message: "must be set with LLM_MODEL (and LLM_API_KEY): without it the councils would run without a model; unset all three for judiciary mode",
  })
  .refine((c) => c.LLM_API_KEY === undefined || c.LLM_BASE_URL === undefined || keyStaysPrivate(c.LLM_BASE_URL), {
    path: ["LLM_BASE_URL"],
    message: "must be https:// when LLM_API_KEY is set and the host is public: plain http would send the key unencrypted",
  })
  .refine((c) => c.HTTP_HEADERS_TIMEOUT_MS <= c.HTTP_REQUEST_TIMEOUT_MS, {
    path: ["HTTP_HEADERS_TIMEOUT_MS"],
    message: "must not exceed HTTP_REQUEST_TIMEOUT_MS",
  });

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Parses the environment; an invalid value names the variable and the rule. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(settings.shape)) {
    const v = env[key];
    // Blank (empty or spaces) is unset: `PORT=" "` would otherwise be coerced to 0, a random port.
    if (v !== undefined && v.trim() !== "") raw[key] = v;
  }
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** Express's `trust proxy` accepts booleans, hop counts and address lists. */
export function trustProxySetting(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
