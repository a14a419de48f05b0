// How far a projection got: the sum of its checkpoints (next offsets, kept in Postgres in the
// projection's own transaction) against the topic's high watermarks.
import pg from 'pg';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function progressReader({ databaseUrl, admin, prefix }) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const topic = `${prefix}ingest.events.v1`;
  return {
    topic,
    async highWatermark(of = topic) {
      const offsets = await admin.fetchTopicOffsets(of);
      return offsets.reduce((sum, p) => sum + Number(p.high), 0);
    },
    /** Records of a topic (default: events) past each consumer group's checkpoints, keyed by the group's last segment. */
    async applied(of = topic) {
      const { rows } = await pool.query(
        `SELECT consumer_group, sum(next_offset)::bigint AS n FROM projection_checkpoints
          WHERE topic = $2 AND consumer_group LIKE $1 || '%' GROUP BY consumer_group`,
        [prefix, of],
      );
      return Object.fromEntries(rows.map((r) => [r.consumer_group.split('.').pop(), Number(r.n)]));
    },
    /** Records of the topic appended but not yet applied by `projection`. */
    async lag(projection, of = topic) {
      return (await this.highWatermark(of)) - ((await this.applied(of))[projection] ?? 0);
    },
    /**
     * Waits until `projection` has applied everything appended so far; returns when it got there
     * and the samples (ms, applied) seen on the way, from which rates are computed. A backlog of
     * millions takes as long as it takes: the wait gives up only when nothing moved for `stallMs`.
     */
    async waitCaughtUp(projection, { stallMs = 120_000, everyMs = 250, of = topic } = {}) {
      const target = await this.highWatermark(of);
      const samples = [];
      let movedAt = performance.now();
      for (;;) {
        const applied = (await this.applied(of))[projection] ?? 0;
        const previous = samples.at(-1);
        samples.push({ at: performance.now(), applied });
        if (applied >= target) return { at: performance.now(), target, samples, caughtUp: true };
        if (previous && applied > previous.applied) movedAt = performance.now();
        if (performance.now() - movedAt > stallMs) return { at: performance.now(), target, samples, caughtUp: false };
        await sleep(everyMs);
      }
    },
    end: () => pool.end(),
  };
}

/** Rate between the first sample that moved and the last: excludes a consumer's start-up and join. */
export function rateOf(samples) {
  const first = samples.findIndex((s, i) => i > 0 && s.applied > samples[0].applied);
  if (first < 1) return null;
  const from = samples[first - 1];
  const to = samples[samples.length - 1];
  return (to.applied - from.applied) / ((to.at - from.at) / 1000);
}
