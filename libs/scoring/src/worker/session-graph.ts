import { Queryable, textArray, timestamptzArray, uuidArray } from '@agentwatch/db';
import { prepared } from '@agentwatch/kafka';
import { ScoredEvent } from '../domain/action';
import { Fact, GraphNode, HISTORY_WINDOW_MS, REMEMBERED_FACTS, rememberedFacts } from '../domain/graph';

/**
 * Adds the batch's graph nodes (events with a fact that later events are judged by) in one
 * statement; replays are no-ops.
 */
export async function addGraphNodes(q: Queryable, nodes: { event: ScoredEvent; facts: Fact[] }[]): Promise<void> {
  const kept = nodes
    .map(({ event, facts }) => ({ event, facts: rememberedFacts(facts) }))
    .filter((n) => n.facts.length > 0 && n.event.sessionId !== null);
  if (kept.length === 0) return;
  // Binary arrays unnested in the select list, as the scores are (score-rows.ts says why).
  await q.query(
    prepared(`INSERT INTO scoring_graph_nodes (org_id, event_id, session_id, at, facts)
     SELECT org_id, event_id, session_id, at, string_to_array(facts, ',')
       FROM (SELECT unnest($1::uuid[]) AS org_id, unnest($2::uuid[]) AS event_id, unnest($3::uuid[]) AS session_id,
                    unnest($4::timestamptz[]) AS at, unnest($5::text[]) AS facts) AS n
     ON CONFLICT (org_id, event_id) DO NOTHING`),
    [
      uuidArray(kept.map((n) => n.event.orgId)),
      uuidArray(kept.map((n) => n.event.id)),
      uuidArray(kept.map((n) => n.event.sessionId)),
      timestamptzArray(kept.map((n) => n.event.timestamp)),
      textArray(kept.map((n) => n.facts.join(','))),
    ],
  );
}

export const treeKey = (orgId: string, sessionId: string) => `${orgId}/${sessionId}`;

/**
 * The graph nodes of each batch session's tree (its root ancestor and every descendant of that root,
 * through sessions.parent_id), within the rules' longest lookback before the batch. One query per
 * batch. Only nodes with a remembered fact are read, whoever stored them.
 */
export async function loadTreeHistory(q: Queryable, events: ScoredEvent[]): Promise<Map<string, GraphNode[]>> {
  const withSession = events.filter((e) => e.sessionId !== null);
  const history = new Map<string, GraphNode[]>();
  if (withSession.length === 0) return history;
  const times = withSession.map((e) => Date.parse(e.timestamp));
  // A partition's batch of 1,000 events names a few dozen sessions: those go, once each.
  const starts = [...new Map(withSession.map((e) => [treeKey(e.orgId, e.sessionId!), e])).values()];
  // Every join is a LATERAL subquery behind OFFSET 0, which the planner may not flatten: each step
  // looks up its few sessions, and the tree its graph nodes, by index, whatever the statistics say.
  // Planned freely, a table without statistics (a new tenant database, or one autovacuum has not
  // analyzed yet) had the planner scan every graph node of the batch's time range and join the trees
  // against each: 42–83 ms a batch instead of 2–3 (docs/adr/0022-session-trees-by-lateral-lookups.md).
  // Planned on every call, not prepared: a generic plan made while a table was tiny could keep a
  // sequential scan inside a subquery after the table grew (ADR 0018).
  const rows: { org_id: string; start: string; event_id: string; session_id: string; at: Date; facts: Fact[] }[] =
    await q.query(
      `WITH RECURSIVE start AS (
         SELECT org_id, session_id FROM unnest($1::uuid[], $2::uuid[]) AS s(org_id, session_id)
       ), up AS (
         SELECT org_id, session_id AS start, session_id AS id, 0 AS depth FROM start
         UNION ALL
         SELECT up.org_id, up.start, s.parent_id, up.depth + 1
           FROM up CROSS JOIN LATERAL (
             SELECT parent_id FROM sessions
              WHERE org_id = up.org_id AND id = up.id AND parent_id IS NOT NULL OFFSET 0
           ) s
          WHERE up.depth < 32
       ), roots AS (
         SELECT DISTINCT ON (org_id, start) org_id, start, id AS root FROM up ORDER BY org_id, start, depth DESC
       ), down AS (
         SELECT org_id, start, root AS id, 0 AS depth FROM roots
         UNION ALL
         SELECT down.org_id, down.start, s.id, down.depth + 1
           FROM down CROSS JOIN LATERAL (
             SELECT id FROM sessions WHERE org_id = down.org_id AND parent_id = down.id OFFSET 0
           ) s
          WHERE down.depth < 32
       ), tree AS (SELECT DISTINCT org_id, start, id FROM down)
       SELECT t.org_id, t.start, n.event_id, n.session_id, n.at, n.facts
         FROM tree t CROSS JOIN LATERAL (
           SELECT event_id, session_id, at, facts FROM scoring_graph_nodes
            WHERE org_id = t.org_id AND session_id = t.id AND at >= $3 AND at <= $4 AND facts && $5::text[] OFFSET 0
         ) n`,
      [
        starts.map((e) => e.orgId),
        starts.map((e) => e.sessionId),
        new Date(Math.min(...times) - HISTORY_WINDOW_MS),
        new Date(Math.max(...times)),
        REMEMBERED_FACTS,
      ],
    );
  for (const row of rows) {
    const key = treeKey(row.org_id, row.start);
    const nodes = history.get(key) ?? [];
    nodes.push({ eventId: row.event_id, sessionId: row.session_id, at: row.at.getTime(), facts: row.facts });
    history.set(key, nodes);
  }
  return history;
}
