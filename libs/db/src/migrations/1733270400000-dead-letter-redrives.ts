import { MigrationInterface, QueryRunner } from 'typeorm';

// The dead letters `agentwatch dlq redrive` has re-produced, so that a second redrive skips them.
// Kept in Postgres rather than as Kafka markers: the claim and the produce run inside one row lock
// (a second operator redriving at the same moment waits on it and then finds the row), operators
// can query it, and it needs no topic of its own. Keyed by the dead letter's coordinates, deployment
// prefix included in the topic name, so side-by-side deployments sharing a database do not collide.
// An operator's ledger, not a tenant's read model: no row-level security; the org is informative.
export class DeadLetterRedrives1733270400000 implements MigrationInterface {
  name = 'DeadLetterRedrives1733270400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dead_letter_redrives (
        dlq_topic        text        NOT NULL,
        dlq_partition    integer     NOT NULL,
        dlq_offset       bigint      NOT NULL,
        source_topic     text        NOT NULL,
        source_partition integer     NOT NULL,
        source_offset    bigint      NOT NULL,
        org_id           text,
        redriven_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (dlq_topic, dlq_partition, dlq_offset)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE dead_letter_redrives');
  }
}
