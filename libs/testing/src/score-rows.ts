/** The one verdict these rows share: no details. */
const EMPTY = '00000000-0000-4000-8000-000000000000';

/**
 * Writes a score row as the scoring worker would, with empty details: for tests of what reads or
 * counts scores (the events routes' join, the hourly risk counters). A null score is a failed one.
 */
export async function insertScoreRow(
  db: { query: (sql: string, params: unknown[]) => Promise<unknown> },
  score: { orgId: string; eventId: string; score: number | null; eventTimestamp: string },
): Promise<void> {
  await db.query(
    `WITH verdict AS (
       INSERT INTO score_verdicts (org_id, id, violations, compliance_refs, mitigations, score_components,
                                   behavioral_flags, score_decomposition)
       VALUES ($1, $6, '[]', '[]', '[]', '[]', '[]', '{}') ON CONFLICT (org_id, id) DO NOTHING)
     INSERT INTO event_scores (org_id, event_id, status, score, reasoning, scoring_source, llm_fallback, cache_hit,
                               confidence, scorer_version, policy_version, fingerprint, action, event_timestamp,
                               scored_at, verdict_id)
     VALUES ($1, $2, $3, $4, '', 'graph', false, false, 1, 'test', 1, '', '', $5, now(), $6)
     ON CONFLICT (org_id, event_id) DO NOTHING`,
    [score.orgId, score.eventId, score.score === null ? 'failed' : 'scored', score.score, score.eventTimestamp, EMPTY],
  );
}

/** A score's six detail documents as the older schema held them, empty. */
const NO_DOCUMENTS = ['[]', '[]', '[]', '[]', '[]', '{}'];

/**
 * The same row in the schema before score verdicts, its detail documents (violations, compliance
 * refs, mitigations, components, behavioral flags, decomposition: JSON text) in the row itself: for
 * the tests of migrations that run on a database migrated back that far.
 */
export async function insertScoreRowBeforeVerdicts(
  db: { query: (sql: string, params: unknown[]) => Promise<unknown> },
  score: { orgId: string; eventId: string; score: number | null; eventTimestamp: string; documents?: string[] },
): Promise<void> {
  await db.query(
    `INSERT INTO event_scores (org_id, event_id, status, score, reasoning, scoring_source, llm_fallback, cache_hit,
                               confidence, scorer_version, policy_version, fingerprint, action, event_timestamp,
                               scored_at, violations, compliance_refs, mitigations, score_components,
                               behavioral_flags, score_decomposition)
     VALUES ($1, $2, $3, $4, '', 'graph', false, false, 1, 'test', 1, '', '', $5, now(), $6, $7, $8, $9, $10, $11)
     ON CONFLICT (org_id, event_id) DO NOTHING`,
    [
      score.orgId,
      score.eventId,
      score.score === null ? 'failed' : 'scored',
      score.score,
      score.eventTimestamp,
      ...(score.documents ?? NO_DOCUMENTS),
    ],
  );
}
