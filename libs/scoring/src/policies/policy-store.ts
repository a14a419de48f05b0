import { PolicyDocument } from '@agentwatch/contracts';
import { Queryable } from '@agentwatch/db';
import { CompiledPolicy, compilePolicy, EMPTY_POLICY, policyInEffect } from '../domain/policy';

export interface StoredPolicy {
  orgId: string;
  version: number;
  policies: PolicyDocument;
  updatedAt: Date;
}

const toStored = (row: { org_id: string; version: number; policies: PolicyDocument; updated_at: Date }) => ({
  orgId: row.org_id,
  version: row.version,
  // Fill fields a later contract version may have added, so readers always see all seven.
  policies: { ...EMPTY_POLICY, ...row.policies },
  updatedAt: row.updated_at,
});

export async function readPolicy(q: Queryable, orgId: string): Promise<StoredPolicy | null> {
  const rows = await q.query('SELECT org_id, version, policies, updated_at FROM scoring_policies WHERE org_id = $1', [
    orgId,
  ]);
  return rows[0] ? toStored(rows[0]) : null;
}

export interface StoredVersion {
  version: number;
  policies: PolicyDocument;
  changedAt: Date;
}

/** Every version the customer saved, newest first: the history rows writePolicy keeps beside the current one. */
export async function readPolicyVersions(q: Queryable, orgId: string): Promise<StoredVersion[]> {
  const rows: { version: number; policies: PolicyDocument; changed_at: Date }[] = await q.query(
    'SELECT version, policies, changed_at FROM scoring_policy_versions WHERE org_id = $1 ORDER BY version DESC',
    [orgId],
  );
  return rows.map((row) => ({
    version: row.version,
    policies: { ...EMPTY_POLICY, ...row.policies },
    changedAt: row.changed_at,
  }));
}

/** Writes the next version and its history row. `create` answers null when a policy exists; `replace` upserts. */
export async function writePolicy(
  q: Queryable,
  orgId: string,
  policies: PolicyDocument,
  mode: 'create' | 'replace',
  now: Date,
): Promise<StoredPolicy | null> {
  const rows =
    mode === 'create'
      ? await q.query(
          `INSERT INTO scoring_policies (org_id, version, policies, created_at, updated_at) VALUES ($1, 1, $2, $3, $3)
           ON CONFLICT (org_id) DO NOTHING RETURNING org_id, version, policies, updated_at`,
          [orgId, JSON.stringify(policies), now],
        )
      : await q.query(
          `INSERT INTO scoring_policies AS p (org_id, version, policies, created_at, updated_at) VALUES ($1, 1, $2, $3, $3)
           ON CONFLICT (org_id) DO UPDATE SET version = p.version + 1, policies = EXCLUDED.policies,
                                              updated_at = EXCLUDED.updated_at
           RETURNING org_id, version, policies, updated_at`,
          [orgId, JSON.stringify(policies), now],
        );
  const row = rows[0];
  if (!row) return null;
  await q.query('INSERT INTO scoring_policy_versions (org_id, version, policies, changed_at) VALUES ($1, $2, $3, $4)', [
    orgId,
    row.version,
    JSON.stringify(policies),
    now,
  ]);
  return toStored(row);
}

/**
 * The policy in effect for each event: the latest version saved before the event was received.
 * Live, that is the current policy (a change applies to events received after it, without a
 * restart); on a replay of the topic it is the same version as the first time, so rebuilt scores
 * match. One query per batch; compiled policies are kept per (org, version).
 */
export class PolicyCache {
  private readonly compiled = new Map<string, CompiledPolicy>();

  async inEffect(
    q: Queryable,
    events: { orgId: string; receivedAt: string }[],
  ): Promise<(orgId: string, receivedAt: string) => CompiledPolicy> {
    const times = events.map((e) => Date.parse(e.receivedAt));
    const rows: { org_id: string; version: number; policies: PolicyDocument; changed_at: Date }[] = await q.query(
      `SELECT v.org_id, v.version, v.policies, v.changed_at
         FROM scoring_policy_versions v
        WHERE v.org_id = ANY($1::uuid[]) AND v.changed_at <= $3
          AND (v.changed_at >= $2 OR v.version = (SELECT max(w.version) FROM scoring_policy_versions w
                                                   WHERE w.org_id = v.org_id AND w.changed_at <= $2))
        ORDER BY v.org_id, v.version`,
      [[...new Set(events.map((e) => e.orgId))], new Date(Math.min(...times)), new Date(Math.max(...times))],
    );
    const versions = new Map<string, { at: number; policy: CompiledPolicy }[]>();
    for (const row of rows) {
      const list = versions.get(row.org_id) ?? [];
      list.push({ at: row.changed_at.getTime(), policy: this.compile(row.org_id, row.version, row.policies) });
      versions.set(row.org_id, list);
    }
    return (orgId, receivedAt) => policyInEffect(versions.get(orgId) ?? [], Date.parse(receivedAt));
  }

  private compile(orgId: string, version: number, policies: PolicyDocument): CompiledPolicy {
    const key = `${orgId}@${version}`;
    let policy = this.compiled.get(key);
    if (!policy) {
      policy = compilePolicy({ ...EMPTY_POLICY, ...policies }, version);
      if (this.compiled.size > 10_000) this.compiled.clear();
      this.compiled.set(key, policy);
    }
    return policy;
  }
}
