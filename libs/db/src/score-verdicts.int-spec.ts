import { createHash, randomUUID } from 'node:crypto';
import { insertScoreRowBeforeVerdicts } from '@agentwatch/testing';
import { Client } from 'pg';
import { bootstrapDatabase, grantPrivileges, ownerDataSource, scratchDatabase } from './bootstrap';
import { MIGRATIONS } from './migrations';
import { ScoreVerdicts1733616000000 } from './migrations/1733616000000-score-verdicts';

// This migration and every later one: undone to reach the older schema, applied again by set-up.
const fromThisOne = MIGRATIONS.slice(MIGRATIONS.indexOf(ScoreVerdicts1733616000000)).map((m) => m.name);

const HOUR = '2026-10-01T08:00:00.000Z';
const DOCUMENTS = ['violations', 'compliance_refs', 'mitigations', 'score_components', 'behavioral_flags'] as const;
const clean = ['[]', '[]', '[]', '[]', '[]', '{"graph_weight":1,"llm_weight":0,"gnn_weight":0,"final":0}'];
const risky = [
  '["sensitive_data_access"]',
  '["SOC2 CC6.1"]',
  '["Rotate the key"]',
  '[{"rule":"builtin.sensitive_path","contribution":40}]',
  '[]',
  '{"graph_weight":1,"llm_weight":0,"gnn_weight":0,"final":40}',
];
/** The id the scoring worker gives these documents (verdictIdOf), computed independently. */
const idOf = (documents: string[]) =>
  createHash('sha256')
    .update(documents.join('\n'))
    .digest('hex')
    .slice(0, 32)
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

describe('the migration to score verdicts', () => {
  const { config, drop: dropScratch } = scratchDatabase('verdicts');
  const [orgA, orgB] = [randomUUID(), randomUUID()];
  const events = Array.from({ length: 4 }, () => randomUUID());

  afterAll(dropScratch);

  it('stores each organization’s distinct detail documents once, under the id the worker gives them, and puts them back when undone', async () => {
    await dropScratch();
    await bootstrapDatabase(config);
    const owner = await ownerDataSource(config).initialize();
    const projector = new Client({ connectionString: config.projectorUrl });
    await projector.connect();
    const insertOlderScore = (orgId: string, eventId: string, documents: string[]) =>
      insertScoreRowBeforeVerdicts(projector, { orgId, eventId, score: 0, eventTimestamp: HOUR, documents });
    const details = async () =>
      (
        await projector.query(
          `SELECT s.org_id, s.event_id, v.id, ${DOCUMENTS.map((d) => `v.${d}::text`).join(', ')},
                  v.score_decomposition::text
             FROM event_scores s JOIN score_verdicts v ON v.org_id = s.org_id AND v.id = s.verdict_id
            WHERE s.org_id = ANY($1) ORDER BY s.event_id`,
          [[orgA, orgB]],
        )
      ).rows;
    try {
      for (const _ of fromThisOne) await owner.undoLastMigration();
      await grantPrivileges(owner);
      await insertOlderScore(orgA, events[0], clean);
      await insertOlderScore(orgA, events[1], clean);
      await insertOlderScore(orgA, events[2], risky);
      await insertOlderScore(orgB, events[3], clean);

      expect(await bootstrapDatabase(config)).toEqual(fromThisOne);
      const verdicts = await projector.query('SELECT org_id, id FROM score_verdicts WHERE org_id = ANY($1)', [
        [orgA, orgB],
      ]);
      expect(verdicts.rows).toHaveLength(3);
      const expected = [
        [orgA, events[0], clean],
        [orgA, events[1], clean],
        [orgA, events[2], risky],
        [orgB, events[3], clean],
      ] as const;
      expect(await details()).toEqual(
        [...expected]
          .sort((a, b) => (a[1] < b[1] ? -1 : 1))
          .map(([org_id, event_id, documents]) => ({
            org_id,
            event_id,
            id: idOf(documents),
            ...Object.fromEntries(DOCUMENTS.map((d, i) => [d, documents[i]])),
            score_decomposition: documents[5],
          })),
      );
      const columns = await projector.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'event_scores' AND column_name = ANY($1)`,
        [[...DOCUMENTS, 'score_decomposition']],
      );
      expect(columns.rows).toEqual([]);

      for (const _ of fromThisOne) await owner.undoLastMigration();
      await grantPrivileges(owner);
      const back = await projector.query(
        `SELECT event_id, ${DOCUMENTS.map((d) => `${d}::text`).join(', ')}, score_decomposition::text
           FROM event_scores WHERE org_id = $1 AND event_id = $2`,
        [orgA, events[2]],
      );
      expect(Object.values(back.rows[0]).slice(1)).toEqual(risky);
      expect((await projector.query(`SELECT to_regclass('score_verdicts') AS t`)).rows).toEqual([{ t: null }]);
      expect(await bootstrapDatabase(config)).toEqual(fromThisOne);
    } finally {
      await projector.end();
      await owner.destroy();
    }
  });
});
