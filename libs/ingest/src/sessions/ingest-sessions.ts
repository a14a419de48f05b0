import { Principal } from '@agentwatch/auth';
import { SessionIngestRecord, sessionIngestRecord, sessionLifecycleBody, validateBody } from '@agentwatch/contracts';
import { invalidBody } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { assertBatchSize } from '../events/ingest-events';
import { IngestWriter } from '../ingest-writer';
import { fromLifecycleItem, recordSession } from './domain/record-sessions';

/** The answer once Kafka acknowledged: 1 for a flat record, the item count for the wrapper. */
export const sessionsIngested = z.object({ ok: z.literal(true), ingested: z.number().int().nonnegative() });
type SessionsIngested = z.infer<typeof sessionsIngested>;

/**
 * POST /v1/sessions/ingest: the spec's flat record (one lifecycle event per request), or the
 * development wrapper `{events:[{event_type: session_start|session_end, …}]}`.
 */
export class IngestSessions extends Command<SessionsIngested> {
  constructor(
    readonly principal: Principal,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(IngestSessions)
export class IngestSessionsHandler implements ICommandHandler<IngestSessions> {
  constructor(private readonly writer: IngestWriter) {}

  async execute({ principal, body }: IngestSessions): Promise<SessionsIngested> {
    const records = this.read(body);
    const receivedAt = new Date();
    const sessions = records.map((record) =>
      recordSession(record, { orgId: principal.orgId, receivedAt, newId: uuidv7 }),
    );
    await this.writer.append(principal, { events: [], sessions });
    return { ok: true, ingested: sessions.length };
  }

  private read(body: unknown): SessionIngestRecord[] {
    if (typeof body === 'object' && body !== null && 'events' in body) {
      assertBatchSize(body);
      const wrapper = validateBody(sessionLifecycleBody, body, 'events');
      if (!wrapper.ok) throw invalidBody(wrapper.issues);
      return wrapper.value.events.map(fromLifecycleItem);
    }
    const flat = validateBody(sessionIngestRecord, body);
    if (!flat.ok) throw invalidBody(flat.issues);
    return [flat.value];
  }
}
