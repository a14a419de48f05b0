import { MigrationInterface, QueryRunner } from 'typeorm';

// Every event row is updated exactly once after its insert, when its score is copied onto it. At
// fillfactor 85 a page kept room for about one update in five: the other copies went to another
// page and into all three indexes (18 % HOT in a quick bench). At 50 each row's one new version fits
// on its own page: 200,000 copies in arrival order, 12.4 µs of Postgres CPU per row at 85, 5.3 µs
// at 50 (issue 7), and the indexes no longer hold a dead entry per event until vacuum. The heap holds
// the same bytes once every event is scored (111 MB at 85, 105 MB at 50, for those 200,000 rows),
// because a non-HOT copy leaves its old version behind as well. New pages only.
export class EventsHalfFillfactor1732838400000 implements MigrationInterface {
  name = 'EventsHalfFillfactor1732838400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events SET (fillfactor = 50)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events SET (fillfactor = 85)');
  }
}
