import { MigrationInterface, QueryRunner } from 'typeorm';

// A score's six detail documents (violations, compliance references, mitigations, components,
// behavioral flags, decomposition) follow from the rules that hit, so most events share them with
// thousands of others: a quick bench's 512,000 scores held 24 distinct sets. Each set is now stored
// once per organization in score_verdicts, named by a digest of its text, and a score row refers to
// it: about 130 bytes less per score row, and Postgres no longer checks six JSON documents per
// scored event (see docs/adr/0016-score-verdicts.md for what that saved).
//
// A product migration: every database serving tenants holds these tables, so it raises
// PRODUCT_SCHEMA_VERSION and tenant databases take it with `migrate --all-tenants`. It rewrites
// event_scores once, holding it locked meanwhile.

const DOCUMENTS = [
  'violations',
  'compliance_refs',
  'mitigations',
  'score_components',
  'behavioral_flags',
  'score_decomposition',
];

/**
 * The verdict's id: the first 16 bytes of the SHA-256 of its documents' text joined by newlines,
 * as the scoring worker computes it (verdictIdOf), so the ids written here and there agree.
 */
const VERDICT_ID = `encode(substring(sha256(convert_to(${DOCUMENTS.map((d) => `${d}::text`).join(
  ` || E'\\n' || `,
)}, 'UTF8')) FROM 1 FOR 16), 'hex')::uuid`;

export class ScoreVerdicts1733616000000 implements MigrationInterface {
  name = 'ScoreVerdicts1733616000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE score_verdicts (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        ${DOCUMENTS.map((d) => `${d} json NOT NULL`).join(',\n        ')},
        PRIMARY KEY (org_id, id)
      );
      ALTER TABLE score_verdicts ENABLE ROW LEVEL SECURITY;
      ALTER TABLE score_verdicts FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON score_verdicts USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());

      ALTER TABLE event_scores ADD COLUMN verdict_id uuid;
      -- Every organization's rows, as their owner (row-level security is forced on the owner too); and
      -- scores are append-only: this one rewrite is the migration's own.
      ALTER TABLE event_scores NO FORCE ROW LEVEL SECURITY;
      ALTER TABLE score_verdicts NO FORCE ROW LEVEL SECURITY;
      ALTER TABLE event_scores DISABLE TRIGGER event_scores_append_only;
      UPDATE event_scores SET verdict_id = ${VERDICT_ID};
      ALTER TABLE event_scores ENABLE TRIGGER event_scores_append_only;
      INSERT INTO score_verdicts (org_id, id, ${DOCUMENTS.join(', ')})
        SELECT DISTINCT ON (org_id, verdict_id) org_id, verdict_id, ${DOCUMENTS.join(', ')} FROM event_scores;
      ALTER TABLE event_scores FORCE ROW LEVEL SECURITY;
      ALTER TABLE score_verdicts FORCE ROW LEVEL SECURITY;
      ALTER TABLE event_scores ALTER COLUMN verdict_id SET NOT NULL,
        ${DOCUMENTS.map((d) => `DROP COLUMN ${d}`).join(', ')};
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE event_scores ${DOCUMENTS.map((d) => `ADD COLUMN ${d} json`).join(', ')};
      ALTER TABLE event_scores NO FORCE ROW LEVEL SECURITY;
      ALTER TABLE score_verdicts NO FORCE ROW LEVEL SECURITY;
      ALTER TABLE event_scores DISABLE TRIGGER event_scores_append_only;
      UPDATE event_scores s SET ${DOCUMENTS.map((d) => `${d} = v.${d}`).join(', ')}
        FROM score_verdicts v WHERE v.org_id = s.org_id AND v.id = s.verdict_id;
      ALTER TABLE event_scores ENABLE TRIGGER event_scores_append_only;
      ALTER TABLE event_scores FORCE ROW LEVEL SECURITY;
      ALTER TABLE event_scores ${DOCUMENTS.map((d) => `ALTER COLUMN ${d} SET NOT NULL`).join(', ')},
        DROP COLUMN verdict_id;
      DROP TABLE score_verdicts;
    `);
  }
}
