import { randomUUID } from 'node:crypto';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { DataSource } from 'typeorm';
import { ScoredEvent } from '../domain/action';
import { factsOf, scoreEvent } from '../domain/engine';
import { NO_POLICY } from '../domain/policy';
import { addGraphNodes, loadTreeHistory, treeKey } from './session-graph';

describe('session graph in Postgres: rules see the whole session tree', () => {
  const orgId = randomUUID();
  const [root, child, grandchild, sibling, unrelated] = Array.from({ length: 5 }, () => randomUUID());
  let db: DataSource;

  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, 0) + seconds * 1000).toISOString();
  const event = (sessionId: string, seconds: number, fields: Partial<ScoredEvent>): ScoredEvent => ({
    id: randomUUID(),
    orgId,
    sessionId,
    actionType: 'FILE_READ',
    toolName: 'cat',
    arguments: [],
    decision: 'allow',
    timestamp: at(seconds),
    receivedAt: at(seconds),
    ...fields,
  });
  const connect = (sessionId: string, seconds: number) =>
    event(sessionId, seconds, { actionType: 'NETWORK_CONNECT', toolName: 'curl', arguments: ['paste.example.com'] });

  beforeAll(async () => {
    db = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().projectorUrl }).initialize();
    // The sessions read model as the projector keeps it: root → child → grandchild, root → sibling.
    await db.query(
      `INSERT INTO sessions (org_id, id, parent_id, state, state_at, last_seen_at)
       SELECT $1, id, parent, 'active', now(), now() FROM unnest($2::uuid[], $3::uuid[]) AS s(id, parent)`,
      [orgId, [root, child, grandchild, sibling, unrelated], [null, root, child, root, null]],
    );
    const read = event(sibling, 0, { arguments: ['/home/dev/.ssh/id_rsa'] });
    await addGraphNodes(db, [{ event: read, facts: factsOf(read, NO_POLICY) }]);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it("finds a sensitive read in a sibling session from a grandchild's outbound connection", async () => {
    const exfil = connect(grandchild, 30);
    const history = await loadTreeHistory(db, [exfil]);
    const nodes = history.get(treeKey(orgId, grandchild)) ?? [];
    expect(nodes.map((n) => [n.sessionId, n.facts])).toEqual([[sibling, ['sensitive_read']]]);
    expect(scoreEvent(exfil, NO_POLICY, nodes).components).toEqual([
      { rule: 'graph.sensitive_read_then_connect', contribution: 40 },
    ]);
  });

  it('keeps unrelated sessions and reads outside the window apart', async () => {
    const history = await loadTreeHistory(db, [connect(unrelated, 30)]);
    expect(history.get(treeKey(orgId, unrelated)) ?? []).toEqual([]);
    // More than an hour after the read: not loaded, and not a hit even when a batch's window loads it.
    const late = connect(root, 4000);
    expect((await loadTreeHistory(db, [late])).get(treeKey(orgId, root)) ?? []).toEqual([]);
    const wide = await loadTreeHistory(db, [connect(child, 30), late]);
    expect(wide.get(treeKey(orgId, root))).toHaveLength(1);
    expect(scoreEvent(late, NO_POLICY, wide.get(treeKey(orgId, root)) ?? []).components).toEqual([]);
  });

  it('stores only events with facts that later events are judged by, once', async () => {
    const plain = event(child, 10, { arguments: ['/repo/readme.md'] });
    const deletion = event(child, 11, { actionType: 'FILE_DELETE', arguments: ['/repo/x'] });
    const outbound = connect(child, 12);
    expect(factsOf(outbound, NO_POLICY)).toEqual(['outbound_connect']);
    const nodes = [plain, deletion, outbound].map((e) => ({ event: e, facts: factsOf(e, NO_POLICY) }));
    await addGraphNodes(db, nodes);
    await addGraphNodes(db, nodes);
    const rows = await db.query(
      'SELECT event_id, facts FROM scoring_graph_nodes WHERE org_id = $1 AND session_id = $2',
      [orgId, child],
    );
    expect(rows).toEqual([{ event_id: deletion.id, facts: ['delete'] }]);
  });

  it("reads only the batch trees' graph nodes, even before the tables have planner statistics", async () => {
    // A new tenant database, or a table autovacuum has not analyzed yet, has no column statistics:
    // the planner then read every graph node of the batch's time range, by a sequential scan or by
    // the index's time bound alone, and joined each against the trees.
    const admin = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().adminUrl }).initialize();
    const tx = admin.createQueryRunner();
    await tx.startTransaction();
    try {
      const other = randomUUID();
      const roots = Array.from({ length: 40 }, () => randomUUID());
      const children = roots.map(() => randomUUID());
      const strangers = roots.map(() => randomUUID());
      await tx.query(
        `INSERT INTO sessions (org_id, id, parent_id, state, state_at, last_seen_at)
         SELECT $1, id, parent, 'active', now(), now() FROM unnest($2::uuid[], $3::uuid[]) AS s(id, parent)`,
        [
          other,
          [...roots, ...children, ...strangers],
          [...roots.map(() => null), ...roots, ...strangers.map(() => null)],
        ],
      );
      const deletes = [...roots, ...children, ...strangers].flatMap((sessionId) =>
        Array.from({ length: 50 }, (_, i) => event(sessionId, i, { orgId: other, actionType: 'FILE_DELETE' })),
      );
      await addGraphNodes(
        tx,
        deletes.map((e) => ({ event: e, facts: factsOf(e, NO_POLICY) })),
      );
      await tx.query(
        `DELETE FROM pg_statistic WHERE starelid IN ('sessions'::regclass, 'scoring_graph_nodes'::regclass)`,
      );
      const nodesRead = async () => {
        const [{ n }] = await tx.query(
          `SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_xact_user_tables
            WHERE relid = 'scoring_graph_nodes'::regclass`,
        );
        return Number(n);
      };
      const before = await nodesRead();

      const history = await loadTreeHistory(
        tx,
        children.map((sessionId) => event(sessionId, 60, { orgId: other })),
      );

      expect(children.map((sessionId) => history.get(treeKey(other, sessionId))?.length)).toEqual(
        children.map(() => 100),
      );
      // The 4,000 nodes of the 40 trees; not the strangers' 2,000 of the same time range.
      expect((await nodesRead()) - before).toBe(4000);
    } finally {
      await tx.rollbackTransaction();
      await admin.destroy();
    }
  });

  it('reads back no node whose facts no rule looks back for', async () => {
    const stored = randomUUID();
    await db.query(
      `INSERT INTO scoring_graph_nodes (org_id, event_id, session_id, at, facts)
       VALUES ($1, $2, $3, $4, '{outbound_connect}')`,
      [orgId, stored, sibling, at(20)],
    );
    const nodes = (await loadTreeHistory(db, [connect(grandchild, 30)])).get(treeKey(orgId, grandchild)) ?? [];
    expect(nodes.filter((n) => n.sessionId === sibling).map((n) => [n.eventId === stored, n.facts])).toEqual([
      [false, ['sensitive_read']],
    ]);
  });
});
