import { OrgScope } from '@agentwatch/db';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { MACHINE_COLUMNS, MachineList, MachineRow, toMachineView } from './machine-view';

/** GET /v1/machines: every enrolled machine of the organization, revoked ones too, oldest enrollment first. */
export class ListMachines extends Query<MachineList> {
  constructor(readonly orgId: string) {
    super();
  }
}

@QueryHandler(ListMachines)
export class ListMachinesHandler implements IQueryHandler<ListMachines> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId }: ListMachines): Promise<MachineList> {
    const rows: MachineRow[] = await this.db.run(orgId, (q) =>
      q.query(`SELECT ${MACHINE_COLUMNS} FROM machines WHERE org_id = $1 ORDER BY registered_at, id`, [orgId]),
    );
    return { machines: rows.map(toMachineView) };
  }
}
