export interface EventCounts {
  total: number;
  distinct: number;
}

/**
 * Rows of an organization in the events read model, and how many distinct ids among them: the
 * exactly-once check of the fault tests (total = distinct = accepted).
 */
export async function eventCounts(
  db: { query: (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }> },
  orgId: string,
): Promise<EventCounts> {
  const { rows } = await db.query(
    'SELECT count(*)::int AS total, count(DISTINCT id)::int AS distinct FROM events WHERE org_id = $1',
    [orgId],
  );
  return rows[0] as EventCounts;
}
