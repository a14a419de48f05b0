import { Principal } from '@agentwatch/auth';
import { CHECKIN_RECORDED_TYPE, CheckinRecordedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { OrgScope, updateReturning } from '@agentwatch/db';
import { EventPublisher } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { v7 as uuidv7 } from 'uuid';

export type MachineFacts = Pick<CheckinRecordedV1, 'hostname' | 'os' | 'arch' | 'daemon_version'>;

const FIRST_INGEST: Record<'deploy-token' | 'service-token', string> = {
  'deploy-token':
    'UPDATE deploy_tokens SET first_ingest_at = now() WHERE org_id = $1 AND id = $2 AND first_ingest_at IS NULL RETURNING id',
  'service-token':
    'UPDATE machines SET first_ingest_at = now() WHERE org_id = $1 AND id = $2 AND first_ingest_at IS NULL RETURNING id',
};

/**
 * Publishes daemon check-ins on `ingest.checkins.v1`: at machine registration, and at the first
 * ingest of each daemon credential. Credentials known to have ingested are remembered, so steady
 * ingest costs nothing here.
 */
@Injectable()
export class Checkins {
  private readonly alreadyIngested = new LRUCache<string, true>({ max: 200_000 });

  constructor(
    private readonly db: OrgScope,
    private readonly publisher: EventPublisher,
  ) {}

  registered(orgId: string, machineId: string, facts: MachineFacts): Promise<void> {
    return this.publish({
      org_id: orgId,
      credential: 'service-token',
      credential_id: machineId,
      machine_id: machineId,
      reason: 'registered',
      ...facts,
    });
  }

  async ingested(principal: Principal): Promise<void> {
    if (principal.credential === 'jwt') return;
    const key = `${principal.orgId}/${principal.credential}/${principal.credentialId}`;
    if (this.alreadyIngested.has(key)) return;
    const first = await this.db.run(principal.orgId, (q) =>
      updateReturning(q, FIRST_INGEST[principal.credential as 'deploy-token' | 'service-token'], [
        principal.orgId,
        principal.credentialId,
      ]),
    );
    if (first.length > 0) {
      await this.publish({
        org_id: principal.orgId,
        credential: principal.credential as 'deploy-token' | 'service-token',
        credential_id: principal.credentialId,
        machine_id: principal.machineId,
        reason: 'first_ingest',
        hostname: null,
        os: null,
        arch: null,
        daemon_version: null,
      });
    }
    this.alreadyIngested.set(key, true);
  }

  private async publish(checkin: Omit<CheckinRecordedV1, 'id' | 'timestamp'>): Promise<void> {
    const record: CheckinRecordedV1 = { id: uuidv7(), timestamp: new Date().toISOString(), ...checkin };
    await this.publisher.publish(TOPICS.ingestCheckins.name, [
      toWire({
        id: record.id,
        type: CHECKIN_RECORDED_TYPE,
        orgId: record.org_id,
        time: record.timestamp,
        key: record.org_id,
        payload: record,
      }),
    ]);
  }
}
