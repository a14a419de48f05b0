import { EVENT_RISK_LOCK } from './migrations';
import type { Queryable } from './org-scope';

// Sessions share STRIPES stripes: every advisory lock held takes a slot of Postgres's shared lock
// table (max_locks_per_transaction × max_connections, 6,400 by default), and a replay batch can name
// thousands of sessions. Small batches, the ones freshness is about, still rarely share a stripe.
const STRIPES = 256;

const stripeOf = (orgId: string, sessionId: string) =>
  `hashtext(${orgId}::text || '/' || COALESCE(${sessionId}::text, '')) & ${STRIPES - 1}`;

/**
 * Events and their scores are projected by different consumers, so a score can be committed while
 * its event's batch is still open: the batch found no score when it inserted, and the score's UPDATE
 * could not see the uncommitted row. Events batches therefore hold this lock shared until they
 * commit, and the score projection takes it exclusively before its UPDATE.
 *
 * It is striped by organization and session (an event and its score name the same ones), not one
 * global lock: with one lock every score batch waited for every events batch in flight and stalled
 * all that followed (see docs/adr/0003-event-score-interlock.md). Stripes are taken in one sorted
 * statement on both sides, so two batches never deadlock.
 */
export async function lockEventRiskStripes(
  tx: Queryable,
  mode: 'shared' | 'exclusive',
  orgIds: readonly string[],
  sessionIds: readonly (string | null)[],
): Promise<void> {
  const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await tx.query(
    `SELECT ${lock}($1, stripe) FROM (
       SELECT DISTINCT ${stripeOf('org_id', 'session_id')} AS stripe
         FROM unnest($2::uuid[], $3::uuid[]) AS k(org_id, session_id) ORDER BY 1) AS sorted`,
    [EVENT_RISK_LOCK, orgIds, sessionIds],
  );
}

/** The stripe an (organization, session) locks: for tests that need two sessions apart. */
export async function eventRiskStripe(q: Queryable, orgId: string, sessionId: string | null): Promise<number> {
  const [{ stripe }] = await q.query(`SELECT ${stripeOf('$1::uuid', '$2::uuid')} AS stripe`, [orgId, sessionId]);
  return stripe;
}
