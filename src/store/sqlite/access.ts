import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { ApiKeyRecord, ApiKeyRepository, OwnerFields } from "../ports/api-keys.js";
import type { ConsumeResult, CounterRepository, CounterWindow, LeaseGrant } from "../ports/counters.js";
import type { SlidingHit, SlidingWindowRepository } from "../ports/sliding-windows.js";
import type { NewsletterRepository, PendingPage, Subscriber } from "../ports/newsletter.js";
import type { Tier } from "../../domain/access/tiers.js";
import { grantFor } from "../../domain/access/lease-arithmetic.js";

export const accessMigrations: readonly SqliteMigration[] = [
  {
    component: "access",
    version: 1,
    up: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL, tier TEXT NOT NULL,
        name TEXT, email TEXT, active INTEGER NOT NULL, created_at TEXT NOT NULL, deactivated_at TEXT);
      CREATE TABLE counters (bucket TEXT PRIMARY KEY, count INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE INDEX counters_expiry ON counters (expires_at);
      CREATE TABLE sliding_hits (bucket TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX sliding_hits_bucket_at ON sliding_hits (bucket, at);
      CREATE TABLE newsletter_subscribers (
        email TEXT PRIMARY KEY, name TEXT, subscribed_at TEXT NOT NULL,
        welcome_sent_at TEXT, welcome_attempts INTEGER NOT NULL DEFAULT 0);`,
  },
  {
    // Quotas follow a key through rotation: keys stored before count against their own id.
    component: "access",
    version: 2,
    up: `
      ALTER TABLE api_keys ADD COLUMN usage_id TEXT;
      UPDATE api_keys SET usage_id = id WHERE usage_id IS NULL;
      CREATE INDEX api_keys_usage_active ON api_keys (usage_id, active);`,
  },
  {
    // Who is sending a welcome e-mail, until when: replicas must not both send it.
    component: "access",
    version: 3,
    up: `
      ALTER TABLE newsletter_subscribers ADD COLUMN welcome_claimant TEXT;
      ALTER TABLE newsletter_subscribers ADD COLUMN welcome_claimed_until INTEGER;`,
  },
  {
    // One-click unsubscribe links (RFC 8058): the token until the welcome is out, its hash for good.
    component: "access",
    version: 4,
    up: `
      ALTER TABLE newsletter_subscribers ADD COLUMN unsubscribe_token TEXT;
      ALTER TABLE newsletter_subscribers ADD COLUMN unsubscribe_hash TEXT;
      CREATE UNIQUE INDEX newsletter_unsubscribe_hash ON newsletter_subscribers (unsubscribe_hash);`,
  },
  {
    // Personal data sealed (PERSONAL_DATA_KEYS): the row is found by a blind index in `email`,
    // and `address` holds the sealed address; null on rows found by their address.
    component: "access",
    version: 5,
    up: `ALTER TABLE newsletter_subscribers ADD COLUMN address TEXT;`,
  },
];

interface KeyRow {
  id: string;
  /** Set on every row: migration 2 gave stored keys their own id. */
  usage_id: string;
  hash: string;
  prefix: string;
  tier: string;
  name: string | null;
  email: string | null;
  active: number;
  created_at: string;
  deactivated_at: string | null;
}

function toKey(r: KeyRow): ApiKeyRecord {
  return {
    id: r.id,
    usageId: r.usage_id,
    hash: r.hash,
    prefix: r.prefix,
    tier: r.tier as Tier,
    name: r.name,
    email: r.email,
    active: r.active === 1,
    createdAt: r.created_at,
    deactivatedAt: r.deactivated_at,
  };
}

export class SqliteApiKeys implements ApiKeyRepository {
  private readonly insert;
  private readonly byHash;
  private readonly byId;
  private readonly activeByUsage;
  private readonly off;
  private readonly all;
  private readonly owner;
  private readonly ownerIfUnchanged;
  constructor(private readonly db: SqliteDb) {
    this.owner = db.prepare<[{ id: string; name: string | null; email: string | null }]>("UPDATE api_keys SET name = @name, email = @email WHERE id = @id");
    this.ownerIfUnchanged = db.prepare<[{ id: string; name: string | null; email: string | null; wasName: string | null; wasEmail: string | null }]>(
      "UPDATE api_keys SET name = @name, email = @email WHERE id = @id AND name IS @wasName AND email IS @wasEmail",
    );
    this.insert = db.prepare(
      `INSERT INTO api_keys (id, usage_id, hash, prefix, tier, name, email, active, created_at, deactivated_at)
       VALUES (@id, @usageId, @hash, @prefix, @tier, @name, @email, @active, @createdAt, @deactivatedAt)`,
    );
    this.byHash = db.prepare<[string], KeyRow>("SELECT * FROM api_keys WHERE hash = ?");
    this.byId = db.prepare<[string], KeyRow>("SELECT * FROM api_keys WHERE id = ?");
    this.activeByUsage = db.prepare<[string], KeyRow>("SELECT * FROM api_keys WHERE usage_id = ? AND active = 1 LIMIT 1");
    this.off = db.prepare("UPDATE api_keys SET active = 0, deactivated_at = ? WHERE hash = ? AND active = 1");
    this.all = db.prepare<[], KeyRow>("SELECT * FROM api_keys ORDER BY created_at, id");
  }
  async create(r: ApiKeyRecord): Promise<void> {
    this.insert.run({ ...r, active: r.active ? 1 : 0 });
  }
  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = this.byHash.get(hash);
    return row ? toKey(row) : null;
  }
  async findById(id: string): Promise<ApiKeyRecord | null> {
    const row = this.byId.get(id);
    return row ? toKey(row) : null;
  }
  async findActiveByUsageId(usageId: string): Promise<ApiKeyRecord | null> {
    const row = this.activeByUsage.get(usageId);
    return row ? toKey(row) : null;
  }
  async deactivate(hash: string, at: string): Promise<boolean> {
    return this.off.run(at, hash).changes === 1;
  }
  async rotate(previousHash: string, next: ApiKeyRecord, at: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.off.run(at, previousHash).changes !== 1) return false;
      this.insert.run({ ...next, active: 1 });
      return true;
    }).immediate();
  }
  async list(): Promise<ApiKeyRecord[]> {
    return this.all.all().map(toKey);
  }
  async rewriteOwner(id: string, name: string | null, email: string | null, expected?: OwnerFields): Promise<boolean> {
    if (expected === undefined) return this.owner.run({ id, name, email }).changes === 1;
    return this.ownerIfUnchanged.run({ id, name, email, wasName: expected.name, wasEmail: expected.email }).changes === 1;
  }
}

interface PendingConsume {
  readonly windows: readonly CounterWindow[];
  readonly now: number;
  readonly resolve: (r: ConsumeResult) => void;
  readonly reject: (err: unknown) => void;
}

export class SqliteCounters implements CounterRepository {
  private readonly read;
  private readonly hitsIfRoom;
  private readonly undoHits;
  private readonly sweep;
  private readonly consumeBatch;
  private readonly giveBack;
  private pending: PendingConsume[] = [];
  constructor(private readonly db: SqliteDb) {
    this.read = db.prepare<[string, number], { count: number }>(
      "SELECT count FROM counters WHERE bucket = ? AND expires_at > ?",
    );
    // One statement per window: count n hits only where the window has room for all n (n never
    // exceeds the limit). An expired window restarts at n instead of being swept first; a window
    // without room returns no row and is left alone.
    this.hitsIfRoom = db.prepare<[{ bucket: string; expiresAt: number; now: number; limit: number; n: number }], { count: number }>(
      `INSERT INTO counters (bucket, count, expires_at) VALUES (@bucket, @n, @expiresAt)
       ON CONFLICT (bucket) DO UPDATE SET
         count = CASE WHEN counters.expires_at <= @now THEN @n ELSE counters.count + @n END,
         expires_at = excluded.expires_at
       WHERE counters.expires_at <= @now OR counters.count + @n <= @limit
       RETURNING count`,
    );
    this.undoHits = db.prepare<[{ bucket: string; n: number }]>("UPDATE counters SET count = count - @n WHERE bucket = @bucket");
    this.sweep = db.prepare("DELETE FROM counters WHERE expires_at <= ?");
    // Only into the window the lease came from, and never below zero.
    this.giveBack = db.prepare<[{ bucket: string; n: number; expiresAt: number; now: number }], { count: number }>(
      `UPDATE counters SET count = count - @n
       WHERE bucket = @bucket AND expires_at = @expiresAt AND expires_at > @now AND count >= @n
       RETURNING count`,
    );
    this.consumeBatch = db.transaction((batch: readonly PendingConsume[]) => this.consumeGrouped(batch));
  }

  /**
   * Group commit: hits arriving in the same event-loop turn share one IMMEDIATE transaction
   * (counted as `consumeGrouped` says). IMMEDIATE takes the write lock up front, so each
   * check-then-increment stays atomic across processes while the commit cost is paid once.
   */
  consumeAll(windows: readonly CounterWindow[], now: number): Promise<ConsumeResult> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ windows, now, resolve, reject });
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    try {
      const results = this.consumeBatch.immediate(batch);
      batch.forEach((p, i) => p.resolve(results[i] as ConsumeResult));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }

  /**
   * Inside the batch's IMMEDIATE transaction, so no other process sees hits counted and then
   * taken back. Requests with the same windows (one key's, mostly: a busy key sends many per
   * event-loop turn) are counted together, one statement per window for the whole group, when
   * every window has room for all of them; otherwise one by one, in arrival order. Either way
   * each request is counted in every window or in none, and the counts are those of counting
   * the requests one after another.
   */
  private consumeGrouped(batch: readonly PendingConsume[]): ConsumeResult[] {
    const groups = new Map<string, PendingConsume[]>();
    for (const p of batch) {
      const key = p.windows.map((w) => `${w.bucket} ${w.limit} ${w.expiresAt}`).join("\n");
      const group = groups.get(key);
      if (group) group.push(p);
      else groups.set(key, [p]);
    }
    const results = new Map<PendingConsume, ConsumeResult>();
    for (const group of groups.values()) {
      const n = group.length;
      const together = n > 1 ? this.hitAll(group[0]!.windows, n, Math.max(...group.map((p) => p.now))) : null;
      if (together !== null && "counts" in together) {
        group.forEach((p, k) => results.set(p, { allowed: true, counts: together.counts.map((c) => c - n + k + 1), blockedIndex: null }));
      } else {
        for (const p of group) results.set(p, this.consumeOne(p.windows, p.now));
      }
    }
    return batch.map((p) => results.get(p) as ConsumeResult);
  }

  private consumeOne(windows: readonly CounterWindow[], now: number): ConsumeResult {
    const hit = this.hitAll(windows, 1, now);
    if ("counts" in hit) return { allowed: true, counts: hit.counts, blockedIndex: null };
    return { allowed: false, counts: windows.map((w) => this.read.get(w.bucket, now)?.count ?? 0), blockedIndex: hit.blockedAt };
  }

  /** Counts n hits in every window when each has room for n; else in none, naming the first without. */
  private hitAll(windows: readonly CounterWindow[], n: number, now: number): { counts: number[] } | { blockedAt: number } {
    const counts: number[] = [];
    for (const [i, w] of windows.entries()) {
      const row = n <= w.limit ? this.hitsIfRoom.get({ bucket: w.bucket, expiresAt: w.expiresAt, now, limit: w.limit, n }) : undefined;
      if (row === undefined) {
        for (const counted of windows.slice(0, i)) this.undoHits.run({ bucket: counted.bucket, n });
        return { blockedAt: i };
      }
      counts.push(row.count);
    }
    return { counts };
  }

  /** One IMMEDIATE transaction: the write lock makes read-then-add atomic across processes. */
  async reserve(window: CounterWindow, want: number, now: number): Promise<LeaseGrant> {
    return this.db.transaction((): LeaseGrant => {
      const count = this.read.get(window.bucket, now)?.count ?? 0;
      const granted = grantFor(window.limit, count, want);
      if (granted === 0) return { granted, count };
      // The grant fits what is left, so the window has room for it.
      const after = this.hitsIfRoom.get({ bucket: window.bucket, n: granted, expiresAt: window.expiresAt, now, limit: window.limit })?.count ?? count + granted;
      return { granted, count: after };
    }).immediate();
  }
  async release(window: CounterWindow, unused: number, now: number): Promise<number> {
    if (unused <= 0) return this.read.get(window.bucket, now)?.count ?? 0;
    const row = this.giveBack.get({ bucket: window.bucket, n: unused, expiresAt: window.expiresAt, now });
    return row?.count ?? this.read.get(window.bucket, now)?.count ?? 0;
  }
  async peek(bucket: string, now: number): Promise<number> {
    return this.read.get(bucket, now)?.count ?? 0;
  }
  async sweepExpired(now: number): Promise<number> {
    return this.sweep.run(now).changes;
  }
}

export class SqliteSlidingWindows implements SlidingWindowRepository {
  private readonly prune;
  private readonly count;
  private readonly oldest;
  private readonly add;
  private readonly sweep;
  constructor(private readonly db: SqliteDb) {
    this.prune = db.prepare("DELETE FROM sliding_hits WHERE bucket = ? AND at <= ?");
    this.sweep = db.prepare("DELETE FROM sliding_hits WHERE at <= ?");
    this.count = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM sliding_hits WHERE bucket = ?");
    this.oldest = db.prepare<[string], { at: number }>("SELECT MIN(at) AS at FROM sliding_hits WHERE bucket = ?");
    this.add = db.prepare("INSERT INTO sliding_hits (bucket, at) VALUES (?, ?)");
  }
  async hit(bucket: string, now: number, windowMs: number, limit: number): Promise<SlidingHit> {
    return this.db.transaction((): SlidingHit => {
      this.prune.run(bucket, now - windowMs);
      const n = this.count.get(bucket)?.n ?? 0;
      if (n >= limit) {
        const oldest = this.oldest.get(bucket)?.at ?? now;
        return { allowed: false, count: n, retryAt: oldest + windowMs };
      }
      this.add.run(bucket, now);
      return { allowed: true, count: n + 1, retryAt: null };
    }).immediate();
  }
  async sweepBefore(cutoff: number): Promise<number> {
    return this.sweep.run(cutoff).changes;
  }
}

interface SubscriberRow {
  email: string;
  address: string | null;
  name: string | null;
  subscribed_at: string;
  welcome_sent_at: string | null;
  welcome_attempts: number;
}

function toSubscriber(r: SubscriberRow): Subscriber {
  return {
    key: r.email,
    email: r.address ?? r.email,
    name: r.name,
    subscribedAt: r.subscribed_at,
    welcomeSentAt: r.welcome_sent_at,
    welcomeAttempts: r.welcome_attempts,
  };
}

export class SqliteNewsletter implements NewsletterRepository {
  private readonly insert;
  private readonly attempt;
  private readonly pending;
  private readonly one;
  private readonly removeOne;
  private readonly claim;
  private readonly release;
  private readonly giveToken;
  private readonly pendingToken;
  private readonly removeByHash;
  private readonly all;
  private readonly move;
  constructor(private readonly db: SqliteDb) {
    this.giveToken = db.prepare<[{ email: string; token: string; hash: string }]>(
      `UPDATE newsletter_subscribers SET unsubscribe_token = @token, unsubscribe_hash = @hash
       WHERE email = @email AND unsubscribe_hash IS NULL AND welcome_sent_at IS NULL`,
    );
    this.pendingToken = db.prepare<[string], { unsubscribe_token: string | null }>(
      "SELECT unsubscribe_token FROM newsletter_subscribers WHERE email = ? AND welcome_sent_at IS NULL",
    );
    this.removeByHash = db.prepare<[string]>("DELETE FROM newsletter_subscribers WHERE unsubscribe_hash = ?");
    this.insert = db.prepare(
      "INSERT INTO newsletter_subscribers (email, address, name, subscribed_at) VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING",
    );
    this.all = db.prepare<[], SubscriberRow>("SELECT * FROM newsletter_subscribers ORDER BY subscribed_at");
    this.move = db.prepare<[{ from: string; to: string; address: string; name: string | null }]>(
      "UPDATE newsletter_subscribers SET email = @to, address = @address, name = @name WHERE email = @from",
    );
    this.attempt = db.prepare(
      `UPDATE newsletter_subscribers SET welcome_attempts = MAX(welcome_attempts + 1, COALESCE(@giveUpAt, 0)),
         welcome_sent_at = COALESCE(@sentAt, welcome_sent_at),
         unsubscribe_token = CASE WHEN @sentAt IS NULL THEN unsubscribe_token END WHERE email = @email`,
    );
    // LIMIT -1: no limit (SQLite).
    this.pending = db.prepare<[number, string, number], SubscriberRow>(
      "SELECT * FROM newsletter_subscribers WHERE welcome_sent_at IS NULL AND welcome_attempts < ? AND subscribed_at >= ? ORDER BY subscribed_at LIMIT ?",
    );
    this.one = db.prepare<[string], SubscriberRow>("SELECT * FROM newsletter_subscribers WHERE email = ?");
    this.removeOne = db.prepare<[string]>("DELETE FROM newsletter_subscribers WHERE email = ?");
    this.claim = db.prepare<[{ email: string; claimant: string; now: number; until: number; maxAttempts: number }]>(
      `UPDATE newsletter_subscribers SET welcome_claimant = @claimant, welcome_claimed_until = @until
       WHERE email = @email AND welcome_sent_at IS NULL AND welcome_attempts < @maxAttempts
         AND (welcome_claimant IS NULL OR welcome_claimant = @claimant OR welcome_claimed_until <= @now)`,
    );
    this.release = db.prepare(
      "UPDATE newsletter_subscribers SET welcome_claimant = NULL, welcome_claimed_until = NULL WHERE email = ? AND welcome_claimant = ?",
    );
  }
  async claimWelcome(email: string, claimant: string, now: number, leaseMs: number, maxAttempts: number): Promise<boolean> {
    return this.claim.run({ email, claimant, now, until: now + leaseMs, maxAttempts }).changes === 1;
  }
  async releaseWelcome(email: string, claimant: string): Promise<void> {
    this.release.run(email, claimant);
  }
  async subscribe(email: string, name: string | null, at: string, address?: string): Promise<boolean> {
    return this.insert.run(email, address ?? null, name, at).changes === 1;
  }
  async listAll(): Promise<Subscriber[]> {
    return this.all.all().map(toSubscriber);
  }
  async rekey(from: string, to: string, address: string, name: string | null): Promise<void> {
    this.db.transaction(() => {
      if (from !== to && this.one.get(to) !== undefined) this.removeOne.run(from);
      else this.move.run({ from, to, address, name });
    }).immediate();
  }
  async recordWelcomeAttempt(email: string, sentAt: string | null, giveUpAt?: number): Promise<void> {
    this.attempt.run({ giveUpAt: giveUpAt ?? null, sentAt, email });
  }
  async pendingWelcome(maxAttempts: number, page: PendingPage = {}): Promise<Subscriber[]> {
    return this.pending.all(maxAttempts, page.since ?? "", page.limit ?? -1).map(toSubscriber);
  }
  async get(email: string): Promise<Subscriber | null> {
    const r = this.one.get(email);
    return r ? toSubscriber(r) : null;
  }
  async remove(email: string): Promise<boolean> {
    return this.removeOne.run(email).changes === 1;
  }
  async unsubscribeToken(email: string, fresh: { readonly token: string; readonly hash: string }): Promise<string | null> {
    this.giveToken.run({ email, token: fresh.token, hash: fresh.hash });
    return this.pendingToken.get(email)?.unsubscribe_token ?? null;
  }
  async removeByUnsubscribeHash(hash: string): Promise<boolean> {
    return this.removeByHash.run(hash).changes === 1;
  }
}
