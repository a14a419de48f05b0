import { MigrationInterface, QueryRunner } from 'typeorm';

// Every event row is updated once after its insert, when its score is copied onto it. On a full page
// that new row version goes to another page and into all three indexes; with room left on the page
// it is a HOT update that touches no index (see docs/adr/0006-postgres-cost-per-scored-event.md).
// New pages only; existing ones keep their fill.
export class EventsFillfactor1732665600000 implements MigrationInterface {
  name = 'EventsFillfactor1732665600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events SET (fillfactor = 85)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events RESET (fillfactor)');
  }
}
