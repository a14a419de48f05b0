import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { databaseConfigFromEnv } from './database.config';
import { DatabaseModule } from './database.module';

// An app's pool against the real server: the connections a burst opened are given back after 10 s
// of idleness, so idle apps do not hold the server's connection slots (POOL_IDLE_TIMEOUT_MS).
describe("an app's database pool", () => {
  const { adminUrl, projectorUrl } = databaseConfigFromEnv();
  const applicationName = `pool-idle-${randomUUID().slice(0, 8)}`;

  it('closes the connections a burst opened once they sat idle for 10 s', async () => {
    const app = await NestFactory.createApplicationContext(
      DatabaseModule.forRoot({ url: projectorUrl, applicationName, poolSize: 4 }),
      { logger: false },
    );
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    const open = async () =>
      (
        await admin.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [applicationName],
        )
      ).rows[0].n;
    try {
      const dataSource = app.get(DataSource);
      await Promise.all([1, 2, 3].map(() => dataSource.query('SELECT pg_sleep(0.2)')));
      expect(await open()).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(await open()).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      expect(await open()).toBe(0);
    } finally {
      await app.close();
      await admin.end();
    }
  }, 30_000);
});
