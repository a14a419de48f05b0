import path from 'node:path';
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

export function parseCells(raw: string | undefined, databaseUrl: string): Cell[] {
  if (raw === undefined || raw.trim() === '') {
    return [{ id: 'local-1', region: 'local', capacity: 1000, admin_url: databaseUrl }];
  }
  const parsed: unknown = JSON.parse(raw);
  if (!Array.isArray(parsed))
    throw new Error('CONTROL_CELLS must be a JSON array of {id, region, capacity, admin_url}');
  return parsed.map((c, i) => {
    const cell = c as Partial<Cell>;
    if (typeof cell.id !== 'string' || typeof cell.region !== 'string' || typeof cell.capacity !== 'number') {
      throw new Error(`CONTROL_CELLS[${i}] needs id, region (strings) and capacity (number)`);
    }
    return { id: cell.id, region: cell.region, capacity: cell.capacity, admin_url: cell.admin_url ?? databaseUrl };
  });
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
