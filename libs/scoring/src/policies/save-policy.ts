import { TenantData } from '@agentwatch/cells';
import { POLICY_CHANGED_TYPE, PolicyChangedV1, policyDocument, TOPICS, toWire } from '@agentwatch/contracts';
import { BrokerUnavailableError, EventPublisher } from '@agentwatch/kafka';
import { HttpException } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { parsePolicy } from '../domain/policy';
import { customerNotFound } from '../http/api-errors';
import { StoredPolicy, writePolicy } from './policy-store';

/** The policy wrapper POST, PUT and GET answer: the current version, with all seven fields. */
export const policyResponse = z.object({
  customer_id: z.uuid(),
  policies: policyDocument,
  updated_at: z.iso.datetime(),
  version: z.number().int().min(1),
});
export type PolicyResponse = z.infer<typeof policyResponse>;

export const respond = (stored: StoredPolicy): PolicyResponse => ({
  customer_id: stored.orgId,
  policies: stored.policies,
  updated_at: stored.updatedAt.toISOString(),
  version: stored.version,
});

/**
 * What create and replace accept, and so what `POST …/validate` judges: the customer must be the
 * key's (404 otherwise, like an unknown one), and the body a valid policy (422 with every issue).
 */
export function acceptedPolicy({ orgId, customerId, body }: { orgId: string; customerId: string; body: unknown }) {
  if (customerId !== orgId) throw customerNotFound();
  const parsed = parsePolicy(body);
  if (!parsed.ok) throw new HttpException({ error: 'Invalid policy', details: parsed.issues }, 422);
  return parsed.policy;
}

/**
 * Create and replace share one write: every change is a new version, kept in history and published
 * on `scoring.policies.v1` inside the transaction, so if the broker refuses, nothing changed.
 */
export async function savePolicy(
  db: TenantData,
  publisher: EventPublisher,
  change: { orgId: string; customerId: string; body: unknown },
  mode: 'create' | 'replace',
): Promise<PolicyResponse> {
  const policy = acceptedPolicy(change);
  const { orgId } = change;
  const stored = await db.run(orgId, async (q) => {
    const written = await writePolicy(q, orgId, policy, mode, new Date());
    if (!written) throw new HttpException({ error: 'Policy already exists: use PUT to replace it' }, 409);
    const payload: PolicyChangedV1 = {
      org_id: orgId,
      version: written.version,
      policies: written.policies,
      changed_at: written.updatedAt.toISOString(),
    };
    try {
      await publisher.publish(TOPICS.scoringPolicies.name, [
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
