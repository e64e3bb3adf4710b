import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, trustProxySetting } from "../../../src/config/env.js";

describe("configuration", () => {
  it("has a documented default for every variable", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: "0.0.0.0",
      STORE_URL: "sqlite:./data/mis.sqlite",
      ACTOR_RUNTIME: "local",
      MARKET_FEED: "replay",
      REPLAY_SPEED: 60,
      TRUST_PROXY: "false",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      RATE_LIMIT_FREE_PER_MINUTE: 60,
      RATE_LIMIT_BASIC_PER_MINUTE: 300,
      RATE_LIMIT_PRO_PER_MINUTE: 1000,
      QUOTA_FREE_PER_DAY: 100,
      QUOTA_BASIC_PER_DAY: 1000,
      QUOTA_PRO_PER_DAY: 10000,
      LOG_LEVEL: "info",
    });
    expect(c.LLM_BASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
  });

  it.each([
    ["PORT", "http", "PORT"],
    ["PORT", "70000", "PORT"],
    ["STORE_URL", "postgres://x", "STORE_URL: must be sqlite:<path>"],
    ["ACTOR_RUNTIME", "k8s", "ACTOR_RUNTIME"],
    ["MARKET_FEED", "fake", "MARKET_FEED"],
    ["REPLAY_SPEED", "0", "REPLAY_SPEED: must be > 0"],
    ["REPLAY_START", "yesterday", "REPLAY_START: must be an ISO date"],
    ["REPLAY_START", "2026-03-23T07:00:00", "REPLAY_START: must be an ISO date (YYYY-MM-DD) or date-time with its zone"],
    ["QUOTA_PRO_PER_DAY", "1.5", "QUOTA_PRO_PER_DAY: must be an integer"],
    ["RATE_LIMIT_FREE_PER_MINUTE", "many", "RATE_LIMIT_FREE_PER_MINUTE: must be a number"],
    ["WEBHOOK_ALLOW_PRIVATE_TARGETS", "yes", "WEBHOOK_ALLOW_PRIVATE_TARGETS: must be true or false"],
    ["SMTP_URL", "mail.example.com", "SMTP_URL: must be smtp:// or smtps://"],
    ["LLM_BASE_URL", "ftp://x", "LLM_BASE_URL"],
    ["LLM_BASE_URL", "https://proxyuser:hunter2@llm.example.com/v1", "LLM_BASE_URL: must not carry credentials"],
    ["OWNER_NOTIFY_URL", "https://u:p@hooks.example.com/x", "OWNER_NOTIFY_URL: must not carry credentials"],
    ["LOG_LEVEL", "loud", "LOG_LEVEL"],
    ["TRUST_PROXY", "banana", "TRUST_PROXY: must be true, false, a hop count"],
    ["TRUST_PROXY", "10.0.0.1/33", "TRUST_PROXY: must be true, false, a hop count"],
    ["WEBHOOK_DNS_SERVERS", "999.1.1.1", "WEBHOOK_DNS_SERVERS.0: must be ip, ip:port or [ipv6]:port"],
    ["WEBHOOK_DNS_SERVERS", "1.1.1.1:99999", "WEBHOOK_DNS_SERVERS.0: must be ip, ip:port or [ipv6]:port"],
    ["LLM_BASE_URL", "http://127.0.0.1:8081/v1", "LLM_MODEL: must be set with LLM_BASE_URL"],
    ["LLM_MODEL", "smollm2", "LLM_BASE_URL: must be set with LLM_MODEL"],
    ["LLM_API_KEY", "sk-local", "LLM_BASE_URL: must be set with LLM_MODEL"],
    // Not URLs at all: the credentials check must not throw on them (it printed the value).
    ["PUBLIC_BASE_URL", "notaurl", "PUBLIC_BASE_URL: must be an http(s) URL"],
    ["PUBLIC_BASE_URL", "http://", "PUBLIC_BASE_URL: must be an http(s) URL"],
    ["OWNER_NOTIFY_URL", "hooks.slack.com/services/T0001/B0001/XXsecretTOKENxx", "OWNER_NOTIFY_URL: must be an http(s) URL"],
    ["LLM_BASE_URL", "llm.example.com/v1", "LLM_BASE_URL: must be an http(s) URL"],
    ["SMTP_URL", "smtp://user:s3cretSMTP@[bad", "SMTP_URL: must be smtp[s]://[user:password@]host[:port]"],
    ["SMTP_URL", "smtp://mailer:s3cretSMTP@mail.example.com:notaport", "SMTP_URL: must be smtp[s]://[user:password@]host[:port]"],
    ["SMTP_URL", "smtp://mailer:s3cret%zz@mail.example.com", "SMTP_URL: must be smtp[s]://[user:password@]host[:port]"],
    // Numbers in decimal only: Number() read these as 8080, 1000 and 16.
    ["PORT", "0x1F90", "PORT: must be a number"],
    ["PORT", "1e3", "PORT: must be a number"],
    ["QUOTA_FREE_PER_DAY", "0x10", "QUOTA_FREE_PER_DAY: must be a number"],
    ["REPLAY_SPEED", "Infinity", "REPLAY_SPEED: must be a number"],
  ])("stops on %s=%s naming the variable and the rule", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it("never repeats a refused value, which can be a secret", () => {
    for (const [name, value] of [
      ["OWNER_NOTIFY_URL", "hooks.slack.com/services/T0001/B0001/XXsecretTOKENxx"],
      ["SMTP_URL", "smtp://user:s3cretSMTP@[bad"],
      ["STORE_URL", "postgres://admin:S3cretPass@db/x"],
    ] as const) {
      const err = (() => {
        try {
          loadConfig({ [name]: value });
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).not.toMatch(/secret|S3cret/i);
    }
  });

  it("reads decimal numbers with surrounding spaces as the operator wrote them", () => {
    expect(loadConfig({ PORT: " 9090 ", REPLAY_SPEED: "2.5", QUOTA_FREE_PER_DAY: "7" })).toMatchObject({ PORT: 9090, REPLAY_SPEED: 2.5, QUOTA_FREE_PER_DAY: 7 });
  });

  it("will not run on Dapr without daprd's app API token, nor with a short one", () => {
    expect(() => loadConfig({ ACTOR_RUNTIME: "dapr" })).toThrow(/APP_API_TOKEN: ACTOR_RUNTIME=dapr needs it/);
    expect(() => loadConfig({ ACTOR_RUNTIME: "dapr", APP_API_TOKEN: "short" })).toThrow(/APP_API_TOKEN: must be at least 32 characters/);
    const token = "a".repeat(64);
    expect(loadConfig({ ACTOR_RUNTIME: "dapr", APP_API_TOKEN: token }).APP_API_TOKEN).toBe(token);
    // The local runtime has no callback routes: no token needed.
    expect(loadConfig({ ACTOR_RUNTIME: "local" }).APP_API_TOKEN).toBeUndefined();
  });

  it("sends LLM_API_KEY over plain http only to this machine or a private network", () => {
    const llm = (url: string) => () => loadConfig({ LLM_BASE_URL: url, LLM_MODEL: "m", LLM_API_KEY: "sk-secret" });
    for (const url of ["http://api.openai.example.com/v1", "http://8.8.8.8:8080/v1", "http://[2001:4860::8888]/v1"]) {
      expect(llm(url)).toThrow(/LLM_BASE_URL: must be https:\/\/ when LLM_API_KEY is set and the host is public/);
    }
    for (const url of ["https://api.openai.example.com/v1", "http://127.0.0.1:8081/v1", "http://[::1]:8081/v1", "http://10.0.4.2:8080/v1", "http://llama:8080/v1", "http://llm.internal/v1"]) {
      expect(llm(url)().LLM_BASE_URL).toBe(url);
    }
    // Without a key nothing secret travels: a public http model server is the operator's choice.
    expect(loadConfig({ LLM_BASE_URL: "http://api.openai.example.com/v1", LLM_MODEL: "m" }).LLM_API_KEY).toBeUndefined();
  });

  it("accepts the store URLs DECISIONS 1 names", () => {
    for (const url of ["sqlite:./data/x.sqlite", "sqlite::memory:", "mongodb://db:27017/mis", "mongodb+srv://cluster.example.net/mis"]) {
      expect(loadConfig({ STORE_URL: url }).STORE_URL).toBe(url);
    }
  });

  it("accepts what Express's trust proxy and Node's resolver accept, and a whole model provider", () => {
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8, ::1" }).TRUST_PROXY).toBe("loopback, 10.0.0.0/8, ::1");
    expect(loadConfig({ WEBHOOK_DNS_SERVERS: "1.1.1.1, 127.0.0.1:5353, [::1]:53" }).WEBHOOK_DNS_SERVERS).toEqual(["1.1.1.1", "127.0.0.1:5353", "[::1]:53"]);
    expect(loadConfig({ REPLAY_START: "2026-03-23T07:00:00Z" }).REPLAY_START).toBe("2026-03-23T07:00:00Z");
    expect(loadConfig({ REPLAY_START: "2026-03-23" }).REPLAY_START).toBe("2026-03-23");
    const llm = loadConfig({ LLM_BASE_URL: "http://127.0.0.1:8081/v1", LLM_MODEL: "smollm2" });
    expect([llm.LLM_BASE_URL, llm.LLM_MODEL, llm.LLM_API_KEY]).toEqual(["http://127.0.0.1:8081/v1", "smollm2", undefined]);
  });

  it("treats an empty or blank variable as unset, not as 0", () => {
    expect(loadConfig({ PORT: "" }).PORT).toBe(8080);
    expect(loadConfig({ PORT: "  " }).PORT).toBe(8080);
    expect(loadConfig({ METRICS_PORT: " " }).METRICS_PORT).toBeUndefined();
  });

  it("refuses a SQLite URL without a path: it would open a temporary database lost at exit", () => {
    for (const url of ["sqlite:", "sqlite:  "]) expect(() => loadConfig({ STORE_URL: url })).toThrow(ConfigError);
  });

  it("maps TRUST_PROXY onto Express's setting", () => {
    expect(trustProxySetting("true")).toBe(true);
    expect(trustProxySetting("false")).toBe(false);
    expect(trustProxySetting("2")).toBe(2);
    expect(trustProxySetting("loopback, 10.0.0.0/8")).toBe("loopback, 10.0.0.0/8");
  });
});
