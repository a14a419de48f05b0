import { MigrationInterface, QueryRunner } from 'typeorm';

const DOCUMENTS = [
  'violations',
  'compliance_refs',
  'mitigations',
  'score_components',
  'behavioral_flags',
  'score_decomposition',
];

const retype = (type: 'json' | 'jsonb') =>
  `ALTER TABLE event_scores ${DOCUMENTS.map((c) => `ALTER COLUMN ${c} TYPE ${type} USING ${c}::${type}`).join(', ')}`;

// A score's detail documents are written once per event and only ever read back whole (the scoring
// API's per-event detail and lists); no query looks inside them. jsonb parses each into its binary
// form on insert, json only checks the text: about half the Postgres CPU per score row (see
// docs/adr/0006-postgres-cost-per-scored-event.md), and reading them back costs less too.
// The conversion rewrites event_scores once (one row per scored event), holding it locked meanwhile:
// the scoring worker and the scoring API's reads wait for it. events.arguments would save too little
// the same way to pay for a rewrite of the events table: left as it is.
export class ScoreDetailsAsJson1733011200000 implements MigrationInterface {
  name = 'ScoreDetailsAsJson1733011200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(retype('json'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(retype('jsonb'));
  }
}
