import path from 'node:path';
import { z } from 'zod';
import { Cell, RetryPolicy } from './domain/policy';

export interface OperatorAuthSettings {
  /** null: the local development operator issuer (keys in devIssuerDir). */
  jwksUrl: string | null;
  devIssuerDir: string;
  issuer: string;
  clientId: string;
  roleClaim: string;
}

// An abstract class so that it doubles as the Nest injection token.
export abstract class TenancySettings {
  abstract cells: Cell[];
  abstract retry: RetryPolicy;
  /** How long a claimed step may run before another engine (or this one, restarted) takes it over. */
  abstract stepLeaseMs: number;
  abstract pollMs: number;
  /** Relayed outbox rows are deleted after this long: the journal keeps the events, Kafka their copies. */
  abstract outboxRetentionMs: number;
  abstract heartbeatMs: number;
  abstract operator: OperatorAuthSettings;
  /** The product roles' password (DATABASE_ROLE_PASSWORD): a tenant database migrates as the owner role. */
  abstract rolePassword: string | null;
}

const postgresUrl = z.string().refine((url) => {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}, 'expected a postgres:// URL (a superuser of that cell’s server)');

/** CONTROL_CELLS: one or more cells, ids unique; a cell without admin_url is on DATABASE_URL's server. */
export const cellsSchema = z
  .array(
    z.strictObject({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a cell id of lower-case letters, digits and -'),
      region: z.string().min(1),
      // 0 drains a cell: no new tenant is placed there.
      capacity: z.number().int().nonnegative(),
      admin_url: postgresUrl.optional(),
    }),
  )
  .min(1)
  .refine((cells) => new Set(cells.map((c) => c.id)).size === cells.length, 'cell ids must be unique');

/** Why a CONTROL_CELLS value is refused, one message per problem; empty when it is valid. */
export function cellsProblems(raw: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return ['expected a JSON array of {id, region, capacity, admin_url}'];
  }
  const result = cellsSchema.safeParse(parsed);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    return at
      ? `${at}: ${issue.message}`
      : `expected a JSON array of {id, region, capacity, admin_url}: ${issue.message}`;
  });
}

export function parseCells(raw: string | undefined, databaseUrl: string): Cell[] {
  if (raw === undefined || raw.trim() === '') {
    return [{ id: 'local-1', region: 'local', capacity: 1000, admin_url: databaseUrl }];
  }
  const problems = cellsProblems(raw);
  if (problems.length > 0) throw new Error(`CONTROL_CELLS: ${problems.join('; ')}`);
  return cellsSchema.parse(JSON.parse(raw)).map((cell) => ({ ...cell, admin_url: cell.admin_url ?? databaseUrl }));
}

export function tenancySettingsFromEnv(env: NodeJS.ProcessEnv, databaseUrl: string): TenancySettings {
  if (env.OPERATOR_JWKS_URL && !env.OPERATOR_JWT_ISSUER) {
    throw new Error('OPERATOR_JWKS_URL is set: OPERATOR_JWT_ISSUER must name that provider’s issuer');
  }
  return {
    cells: parseCells(env.CONTROL_CELLS, databaseUrl),
    retry: {
      baseMs: Number(env.CONTROL_RETRY_BASE_MS ?? 1000),
      maxMs: Number(env.CONTROL_RETRY_MAX_MS ?? 60_000),
      maxAttempts: Number(env.CONTROL_RETRY_MAX_ATTEMPTS ?? 5),
    },
    stepLeaseMs: Number(env.CONTROL_STEP_LEASE_MS ?? 30_000),
    pollMs: Number(env.CONTROL_POLL_MS ?? 250),
    outboxRetentionMs: Number(env.CONTROL_OUTBOX_RETENTION_HOURS ?? 168) * 3_600_000,
    heartbeatMs: Number(env.CONTROL_SSE_HEARTBEAT_MS ?? 15_000),
    operator: {
      jwksUrl: env.OPERATOR_JWKS_URL || null,
      devIssuerDir: env.OPERATOR_DEV_ISSUER_DIR ?? path.join(process.cwd(), '.local', 'dev-operator-issuer'),
      issuer: env.OPERATOR_JWT_ISSUER ?? (env.OPERATOR_JWKS_URL ? '' : 'agentwatch-operators-dev'),
      clientId: env.OPERATOR_CLIENT_ID ?? 'agentwatch-operator',
      roleClaim: env.OPERATOR_ROLE_CLAIM ?? 'role',
    },
    rolePassword: env.DATABASE_ROLE_PASSWORD ?? null,
  };
}
