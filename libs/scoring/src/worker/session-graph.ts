import { byIndexLookups, Queryable, textArray, timestamptzArray, uuidArray } from '@agentwatch/db';
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
  // Each recursion step looks up a few sessions by key. Left to itself the planner expects hundreds of
  // rows per step and hash-joins a full scan of `sessions`, twice per batch, growing with the table
  // (see docs/adr/0006-postgres-cost-per-scored-event.md). Planned on every call, not prepared: a
  // generic plan made while the tables were small went on scanning all of scoring_graph_nodes (ADR 0018).
  const rows: { org_id: string; start: string; event_id: string; session_id: string; at: Date; facts: Fact[] }[] =
    await byIndexLookups(q, () =>
      q.query(
        `WITH RECURSIVE start AS (
         SELECT org_id, session_id FROM unnest($1::uuid[], $2::uuid[]) AS s(org_id, session_id)
       ), up AS (
         SELECT org_id, session_id AS start, session_id AS id, 0 AS depth FROM start
         UNION ALL
         SELECT up.org_id, up.start, s.parent_id, up.depth + 1
           FROM up JOIN sessions s ON s.org_id = up.org_id AND s.id = up.id
          WHERE s.parent_id IS NOT NULL AND up.depth < 32
       ), roots AS (
         SELECT DISTINCT ON (org_id, start) org_id, start, id AS root FROM up ORDER BY org_id, start, depth DESC
       ), down AS (
         SELECT org_id, start, root AS id, 0 AS depth FROM roots
         UNION ALL
         SELECT down.org_id, down.start, s.id, down.depth + 1
           FROM down JOIN sessions s ON s.org_id = down.org_id AND s.parent_id = down.id
          WHERE down.depth < 32
       ), tree AS (SELECT DISTINCT org_id, start, id FROM down)
       SELECT t.org_id, t.start, n.event_id, n.session_id, n.at, n.facts
         FROM tree t JOIN scoring_graph_nodes n ON n.org_id = t.org_id AND n.session_id = t.id
        WHERE n.at >= $3 AND n.at <= $4 AND n.facts && $5::text[]`,
        [
          starts.map((e) => e.orgId),
          starts.map((e) => e.sessionId),
          new Date(Math.min(...times) - HISTORY_WINDOW_MS),
          new Date(Math.max(...times)),
          REMEMBERED_FACTS,
        ],
      ),
    );
  for (const row of rows) {
    const key = treeKey(row.org_id, row.start);
    const nodes = history.get(key) ?? [];
    nodes.push({ eventId: row.event_id, sessionId: row.session_id, at: row.at.getTime(), facts: row.facts });
    history.set(key, nodes);
  }
  return history;
}
