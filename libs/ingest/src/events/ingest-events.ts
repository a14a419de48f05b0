import { Principal } from '@agentwatch/auth';
import { eventIngestBody, MAX_BATCH_ITEMS, validateBody } from '@agentwatch/contracts';
import { invalidBody, tooLarge } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { IngestWriter } from '../ingest-writer';
import { recordEvents } from './domain/record-events';

export function assertBatchSize(body: unknown): void {
  const items = (body as { events?: unknown } | null)?.events;
  if (Array.isArray(items) && items.length > MAX_BATCH_ITEMS) {
    throw tooLarge(`Too many events: at most ${MAX_BATCH_ITEMS} per request, got ${items.length}`);
  }
}

/** The answer once Kafka acknowledged every record: how many items the batch held. */
export const eventsIngested = z.object({ ingested: z.number().int().nonnegative() });
type EventsIngested = z.infer<typeof eventsIngested>;

/** POST /v1/events/ingest: the body as sent, validated here as a whole batch. */
export class IngestEvents extends Command<EventsIngested> {
  constructor(
    readonly principal: Principal,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(IngestEvents)
export class IngestEventsHandler implements ICommandHandler<IngestEvents> {
  constructor(private readonly writer: IngestWriter) {}

  async execute({ principal, body }: IngestEvents): Promise<EventsIngested> {
    assertBatchSize(body);
    const validated = validateBody(eventIngestBody, body, 'events');
    if (!validated.ok) throw invalidBody(validated.issues);
    const events = recordEvents(validated.value.events, {
      orgId: principal.orgId,
      machineId: principal.machineId,
      receivedAt: new Date(),
      newId: uuidv7,
    });
    await this.writer.append(principal, { events, sessions: [] });
    // Every accepted item counts, a repeated event_id included (stored once, like a retried batch).
    return { ingested: validated.value.events.length };
  }
}
