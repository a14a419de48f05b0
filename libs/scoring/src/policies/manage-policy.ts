import { POLICY_CHANGED_TYPE, PolicyChangedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { BrokerUnavailableError, EventPublisher } from '@agentwatch/kafka';
import { HttpException, Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { parsePolicy } from '../domain/policy';
import { customerNotFound } from '../http/api-errors';
import { readPolicy, StoredPolicy, writePolicy } from './policy-store';

export interface PolicyResponse {
  customer_id: string;
  policies: StoredPolicy['policies'];
  updated_at: string;
  version: number;
}

const respond = (stored: StoredPolicy): PolicyResponse => ({
  customer_id: stored.orgId,
  policies: stored.policies,
  updated_at: stored.updatedAt.toISOString(),
  version: stored.version,
});

/**
 * Create, replace and read a customer's policy. Every change is a new version, kept in history and
 * published on `scoring.policies.v1` inside the transaction: if the broker refuses, nothing changed.
 */
@Injectable()
export class ManagePolicy {
  constructor(
    private readonly db: OrgScope,
    private readonly publisher: EventPublisher,
  ) {}

  async get(orgId: string, customerId: string): Promise<PolicyResponse> {
    if (customerId !== orgId) throw customerNotFound();
    const stored = await this.db.run(orgId, (q) => readPolicy(q, orgId));
    if (!stored) throw new HttpException({ error: 'Policy not found' }, 404);
    return respond(stored);
  }

  async write(orgId: string, customerId: string, body: unknown, mode: 'create' | 'replace'): Promise<PolicyResponse> {
    if (customerId !== orgId) throw customerNotFound();
    const parsed = parsePolicy(body);
    if (!parsed.ok) throw new HttpException({ error: 'Invalid policy', details: parsed.issues }, 422);
    const stored = await this.db.run(orgId, async (q) => {
      const written = await writePolicy(q, orgId, parsed.policy, mode, new Date());
      if (!written) throw new HttpException({ error: 'Policy already exists: use PUT to replace it' }, 409);
      const payload: PolicyChangedV1 = {
        org_id: orgId,
        version: written.version,
        policies: written.policies,
        changed_at: written.updatedAt.toISOString(),
      };
      try {
        await this.publisher.publish(TOPICS.scoringPolicies.name, [
          toWire({ id: uuidv7(), type: POLICY_CHANGED_TYPE, orgId, time: payload.changed_at, key: orgId, payload }),
        ]);
      } catch (error) {
        if (!(error instanceof BrokerUnavailableError)) throw error;
        throw new HttpException({ error: 'Policy not saved: the event broker is unavailable, retry later' }, 503);
      }
      return written;
    });
    return respond(stored);
  }
}
