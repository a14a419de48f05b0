import { toWire, WireMessage } from '@agentwatch/contracts';
import { EventPublisher } from '@agentwatch/kafka';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { TenancySettings } from '../tenancy.settings';

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  ce_id: string;
  ce_type: string;
  org_id: string;
  payload: unknown;
  created_at: Date;
}

const PRUNE_EVERY_MS = 60_000;

/**
 * Deletes outbox rows relayed longer than `retentionMs` ago; rows not yet relayed always stay.
 * Returns how many went.
 */
export async function pruneRelayedOutbox(db: EntityManager | DataSource, retentionMs: number): Promise<number> {
  const [, deleted] = await db.query(
    'DELETE FROM tenancy_outbox WHERE published_at < now() - make_interval(secs => $1)',
    [retentionMs / 1000],
  );
  return deleted;
}

/**
 * Relays the transactional outbox to Kafka in id order. One relay at a time (an advisory lock), so
 * the records of a slug reach their partition in journal order; a record is marked published only
 * after the broker acknowledged it, and a crash in between republishes it with the same `ce_id`
 * (consumers treat a known id as already applied): exactly once in effect.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('outbox-relay');
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: EventPublisher,
    private readonly settings: TenancySettings,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    let prunedAt = 0;
    while (this.running) {
      let relayed = 0;
      try {
        relayed = await this.relayOnce();
        if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
          prunedAt = Date.now();
          await pruneRelayedOutbox(this.dataSource, this.settings.outboxRetentionMs);
        }
      } catch (error) {
        if (this.running) this.logger.warn(`outbox relay: ${(error as Error).message}`);
      }
      if (relayed === 0 && this.running) await new Promise((r) => setTimeout(r, this.settings.pollMs));
    }
  }

  async relayOnce(): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const [{ locked }] = await tx.query(`SELECT pg_try_advisory_xact_lock(hashtext('tenancy-outbox')) AS locked`);
      if (!locked) return 0;
      const rows: OutboxRow[] = await tx.query(
        'SELECT * FROM tenancy_outbox WHERE published_at IS NULL ORDER BY id LIMIT 500',
      );
      if (rows.length === 0) return 0;
      const byTopic = new Map<string, WireMessage[]>();
      for (const row of rows) {
        const message = toWire({
          id: row.ce_id,
          type: row.ce_type,
          orgId: row.org_id,
          time: new Date(row.created_at).toISOString(),
          key: row.key,
          payload: row.payload,
        });
        byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), message]);
      }
      for (const [topic, messages] of byTopic) await this.publisher.publish(topic, messages);
      await tx.query('UPDATE tenancy_outbox SET published_at = now() WHERE id = ANY($1::bigint[])', [
        rows.map((r) => r.id),
      ]);
      return rows.length;
    });
  }
}
