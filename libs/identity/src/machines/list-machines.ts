import { OrgScope } from '@agentwatch/db';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

export interface MachineView {
  machine_id: string;
  hostname: string | null;
  os: string | null;
  arch: string | null;
  daemon_version: string | null;
  /** The start of the service token, as deploy tokens show theirs: enough to recognise it, never to use it. */
  token_prefix: string;
  /** The deploy token it enrolled (or last re-enrolled) with; null for machines enrolled before this was kept. */
  deploy_token_id: string | null;
  registered_at: string;
  rotated_at: string;
  first_ingest_at: string | null;
  last_seen_at: string | null;
  revoked_at: string | null;
}

interface MachineRow {
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

// Named columns, never token_hash.
const COLUMNS =
  'id, hostname, os, arch, daemon_version, token_prefix, deploy_token_id, registered_at, rotated_at, first_ingest_at, last_seen_at, revoked_at';

const toMachineView = (row: MachineRow): MachineView => ({
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

/** GET /v1/machines: every enrolled machine of the organization, revoked ones too, oldest enrollment first. */
export class ListMachines extends Query<{ machines: MachineView[] }> {
  constructor(readonly orgId: string) {
    super();
  }
}

@QueryHandler(ListMachines)
export class ListMachinesHandler implements IQueryHandler<ListMachines> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId }: ListMachines): Promise<{ machines: MachineView[] }> {
    const rows: MachineRow[] = await this.db.run(orgId, (q) =>
      q.query(`SELECT ${COLUMNS} FROM machines WHERE org_id = $1 ORDER BY registered_at, id`, [orgId]),
    );
    return { machines: rows.map(toMachineView) };
  }
}
