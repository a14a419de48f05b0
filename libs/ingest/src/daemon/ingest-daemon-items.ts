import { Principal } from '@agentwatch/auth';
import { EventIngestItem, SessionIngestRecord, ValidationIssue } from '@agentwatch/contracts';
import { invalidBody } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { recordEvents } from '../events/domain/record-events';
import { assertBatchSize } from '../events/ingest-events';
import { IngestWriter } from '../ingest-writer';
import { recordSession } from '../sessions/domain/record-sessions';
import { readDaemonItem } from './domain/daemon-items';

/** The answer once Kafka acknowledged: every item, and how many were events and session records. */
export const daemonItemsIngested = z.object({
  ingested: z.number().int().nonnegative(),
  events: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
});
type DaemonIngestResult = z.infer<typeof daemonItemsIngested>;

/** POST /v1/ingest: a daemon's mixed batch of events and session lifecycle records, all or nothing. */
export class IngestDaemonItems extends Command<DaemonIngestResult> {
  constructor(
    readonly principal: Principal,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(IngestDaemonItems)
export class IngestDaemonItemsHandler implements ICommandHandler<IngestDaemonItems> {
  constructor(private readonly writer: IngestWriter) {}

  async execute({ principal, body }: IngestDaemonItems): Promise<DaemonIngestResult> {
    assertBatchSize(body);
    const items = (body as { events?: unknown } | null)?.events;
    if (!Array.isArray(items)) throw invalidBody([{ index: null, path: 'events', message: 'expected an array' }]);
    const receivedAt = new Date();
    const events: EventIngestItem[] = [];
    const sessions: SessionIngestRecord[] = [];
    const issues: ValidationIssue[] = [];
    items.forEach((raw, index) => {
      const item = readDaemonItem(raw, receivedAt);
      if ('kind' in item) {
        if (item.kind === 'event') events.push(item.event);
        else sessions.push(item.session);
      } else {
        issues.push({ index, ...item });
      }
    });
    if (issues.length > 0) throw invalidBody(issues);
    const context = { orgId: principal.orgId, machineId: principal.machineId, receivedAt, newId: uuidv7 };
    await this.writer.append(principal, {
      events: recordEvents(events, context),
      sessions: sessions.map((record) => recordSession(record, context)),
    });
    return { ingested: items.length, events: events.length, sessions: sessions.length };
  }
}
