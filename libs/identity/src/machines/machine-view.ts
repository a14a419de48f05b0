import { z } from 'zod';

const instant = z.iso.datetime();
const fact = z.string().nullable();

/** An enrolled machine as the list shows it: never its service token, never the token's hash. */
export const machineView = z.object({
  machine_id: z.string(),
  hostname: fact,
  os: fact,
  arch: fact,
  daemon_version: fact,
  /** The start of the service token, as deploy tokens show theirs: enough to recognise it, never to use it. */
  token_prefix: z.string(),
  /** The deploy token it enrolled (or last re-enrolled) with; null for machines enrolled before this was kept. */
  deploy_token_id: z.uuid().nullable(),
  registered_at: instant,
  rotated_at: instant,
  first_ingest_at: instant.nullable(),
  last_seen_at: instant.nullable(),
  revoked_at: instant.nullable(),
});
export type MachineView = z.infer<typeof machineView>;

/** GET /v1/machines, oldest enrollment first. */
export const machineList = z.object({ machines: z.array(machineView) });
export type MachineList = z.infer<typeof machineList>;

/** POST /v1/machines/register: the service token, shown this once. */
export const registeredMachine = z.object({
  machine_id: z.string(),
  /** svc_machine_…: stored only as its SHA-256. */
  service_token: z.string(),
  org_id: z.uuid(),
});
export type RegisteredMachine = z.infer<typeof registeredMachine>;

/** DELETE /v1/machines/{machineId}: when its service token stopped working (the first revocation). */
export const revokedMachine = machineView.pick({ machine_id: true }).extend({ revoked_at: instant });
export type RevokedMachine = z.infer<typeof revokedMachine>;

// Named columns, never token_hash.
export const MACHINE_COLUMNS =
  'id, hostname, os, arch, daemon_version, token_prefix, deploy_token_id, registered_at, rotated_at, first_ingest_at, last_seen_at, revoked_at';

export interface MachineRow {
  id: string;
  hostname: string | null;
  os: string | null;
  arch: string | null;
  daemon_version: string | null;
  token_prefix: string;
  deploy_token_id: string | null;
  registered_at: Date;
  rotated_at: Date;
  first_ingest_at: Date | null;
  last_seen_at: Date | null;
  revoked_at: Date | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const toMachineView = (row: MachineRow): MachineView => ({
  machine_id: row.id,
  hostname: row.hostname,
  os: row.os,
  arch: row.arch,
  daemon_version: row.daemon_version,
  token_prefix: row.token_prefix,
  deploy_token_id: row.deploy_token_id,
  registered_at: row.registered_at.toISOString(),
  rotated_at: row.rotated_at.toISOString(),
  first_ingest_at: iso(row.first_ingest_at),
  last_seen_at: iso(row.last_seen_at),
  revoked_at: iso(row.revoked_at),
});
