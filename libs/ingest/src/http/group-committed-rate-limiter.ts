import { RateLimiterPostgres } from 'rate-limiter-flexible';

/** A key's points after the change and its window's end (ms): what the store's upsert answers, per row. */
interface Counter {
  points: number;
  expire: string | number | null;
}

interface UpsertResult {
  rows: Counter[];
}

/** The store methods rate-limiter-flexible's custom stores implement (RateLimiterStoreAbstract). */
interface PostgresStore {
  _upsert(key: string, points: number, msDuration: number, forceExpire?: boolean): Promise<UpsertResult>;
  _query(query: { name: string; text: string; values: unknown[] }): Promise<{ rows: (Counter & { key: string })[] }>;
}

interface Waiting {
  key: string;
  points: number;
  msDuration: number;
  resolve: (result: UpsertResult) => void;
  reject: (error: unknown) => void;
}

/** The library's own methods, called on this instance where the override hands back to them. */
const store = RateLimiterPostgres.prototype as unknown as PostgresStore;

/**
 * rate-limiter-flexible's Postgres store, with the counters of concurrent requests upserted in one
 * statement: the requests that arrive while a statement runs go together in the next one (group
 * commit). A round trip per request is about 15 % of the API's CPU at 50 events per request
 * (docs/adr/0007-unlogged-rate-limit-counters.md); under load, requests share it.
 *
 * Every request is still counted in Postgres before it is answered, so the limit holds across
 * replicas exactly as before. A key met several times in one statement is added once, and each of
 * its requests gets the count it would have got had they run one after another in arrival order.
 * The keys go in sorted order, so two replicas' statements lock common rows in the same order and
 * cannot deadlock.
 */
export class GroupCommittedRateLimiterPostgres extends RateLimiterPostgres {
  private readonly waiting: Waiting[] = [];
  private upserting = false;
  private readonly table: string;

  constructor(options: ConstructorParameters<typeof RateLimiterPostgres>[0] & { tableName: string }) {
    super(options);
    this.table = `"${options.tableName}"`;
  }

  /** Overrides the store's upsert for consumptions within a window; anything else goes as before. */
  _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<UpsertResult> {
    if (forceExpire || !(msDuration > 0)) return store._upsert.call(this, key, points, msDuration, forceExpire);
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, points, msDuration, resolve, reject });
      if (!this.upserting) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.upserting = true;
    try {
      while (this.waiting.length > 0) {
        // One statement per window length (a consumption may name its own): each sets its keys' expiry.
        const byDuration = new Map<number, Waiting[]>();
        for (const waiting of this.waiting.splice(0)) {
          const group = byDuration.get(waiting.msDuration);
          if (group) group.push(waiting);
          else byDuration.set(waiting.msDuration, [waiting]);
        }
        for (const [msDuration, group] of byDuration) {
          await this.upsertTogether(group, msDuration).catch((error) => {
            for (const waiting of group) waiting.reject(error);
          });
        }
      }
    } finally {
      this.upserting = false;
    }
  }

  private async upsertTogether(group: Waiting[], msDuration: number): Promise<void> {
    const added = new Map<string, number>();
    for (const { key, points } of group) added.set(key, (added.get(key) ?? 0) + points);
    const keys = [...added.keys()].sort();
    const now = Date.now();
    const { rows } = await store._query.call(this, {
      name: 'agentwatch-rate-limit-upsert-many',
      text: `INSERT INTO ${this.table} AS r (key, points, expire)
             SELECT key, points, $3::bigint FROM unnest($1::text[], $2::int[]) AS k(key, points) ORDER BY key
             ON CONFLICT (key) DO UPDATE SET
               points = CASE WHEN r.expire <= $4 THEN excluded.points ELSE r.points + excluded.points END,
               expire = CASE WHEN r.expire <= $4 THEN excluded.expire ELSE r.expire END
             RETURNING key, points, expire`,
      values: [keys, keys.map((key) => added.get(key)), now + msDuration, now],
    });
    const after = new Map(rows.map((row) => [row.key, row]));
    // Walking the group backwards, each request's count is the key's total less what came after it.
    const later = new Map<string, number>();
    for (let i = group.length - 1; i >= 0; i--) {
      const { key, points, resolve } = group[i];
      const row = after.get(key)!;
      const following = later.get(key) ?? 0;
      resolve({ rows: [{ points: row.points - following, expire: row.expire }] });
      later.set(key, following + points);
    }
  }
}
