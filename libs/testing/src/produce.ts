import { randomUUID } from 'node:crypto';
import { EVENT_RECORDED_TYPE, TOPICS, toWire } from '@agentwatch/contracts';
import { eventKey, recordEvents } from '@agentwatch/ingest';
import { createKafka, EventPublisher, ensureTopics, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { v7 as uuidv7 } from 'uuid';

export interface EventStream {
  /** Appends `count` events of the organization in batches, as the cloud API would. */
  /** pauseMs between batches spreads the stream over time. */
  produce(orgId: string, count: number, batchSize?: number, pauseMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real idempotent producer writing canonical event records straight to the suite's events topic:
 * `cat` reads over `sessions` sessions, of `path` when given (a credential file is a fact the
 * session graph keeps).
 */
export async function eventStream(
  env: NodeJS.ProcessEnv,
  { sessions = 40, path }: { sessions?: number; path?: string } = {},
): Promise<EventStream> {
  const settings = kafkaSettingsFromEnv('test-producer', env);
  const kafka = createKafka(settings);
  await ensureTopics(kafka, settings, [TOPICS.ingestEvents]);
  const publisher = new EventPublisher(kafka, settings);
  await publisher.onModuleInit();
  const sessionIds = Array.from({ length: sessions }, () => randomUUID());
  let produced = 0;
  return {
    async produce(orgId, count, batchSize = 500, pauseMs = 0) {
      for (let done = 0; done < count; done += batchSize) {
        const items = Array.from({ length: Math.min(batchSize, count - done) }, () => {
          const n = produced++;
          return {
            action_type: 'FILE_READ' as const,
            timestamp: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
            session_id: sessionIds[n % sessionIds.length],
            tool_name: 'cat',
            ...(path === undefined ? {} : { arguments: [path] }),
          };
        });
        const events = recordEvents(items, { orgId, machineId: null, receivedAt: new Date(), newId: uuidv7 });
        await publisher.publish(
          TOPICS.ingestEvents.name,
          events.map((e) =>
            toWire({ id: e.id, type: EVENT_RECORDED_TYPE, orgId, time: e.received_at, key: eventKey(e), payload: e }),
          ),
        );
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    },
    close: () => publisher.onApplicationShutdown(),
  };
}
