import { MigrationInterface, QueryRunner } from 'typeorm';

// Every event row is updated exactly once after its insert, when its score is copied onto it. At
// fillfactor 85 a page kept room for about one update in five: the other copies went to another
// page and into all three indexes (18 % HOT in a quick bench). At 50 each row's one new version fits
// on its own page, at less than half the Postgres CPU per copy (see
// docs/adr/0006-postgres-cost-per-scored-event.md), and the indexes hold no dead entry per event until
// vacuum. The heap holds about the same bytes once every event is scored, because a non-HOT copy
// leaves its old version behind as well. New pages only.
export class EventsHalfFillfactor1732838400000 implements MigrationInterface {
  name = 'EventsHalfFillfactor1732838400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events SET (fillfactor = 50)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events SET (fillfactor = 85)');
  }
}
