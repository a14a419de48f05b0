import { ServiceTokenVerifier } from '@agentwatch/auth';
import { OrgScope, updateReturning } from '@agentwatch/db';
import { notFound } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RevokedMachine } from './machine-view';

/** DELETE /v1/machines/{machineId}: the machine's service token stops working; idempotent. */
export class RevokeMachine extends Command<RevokedMachine> {
  constructor(
    readonly orgId: string,
    readonly machineId: string,
  ) {
    super();
  }
}

@CommandHandler(RevokeMachine)
export class RevokeMachineHandler implements ICommandHandler<RevokeMachine> {
  constructor(
    private readonly db: OrgScope,
    private readonly verifier: ServiceTokenVerifier,
  ) {}

  async execute({ orgId, machineId }: RevokeMachine): Promise<RevokedMachine> {
    const [row] = await this.db.run(orgId, (q) =>
      updateReturning<{ token_hash: string; revoked_at: Date }>(
        q,
        'UPDATE machines SET revoked_at = COALESCE(revoked_at, now()) WHERE org_id = $1 AND id = $2 RETURNING token_hash, revoked_at',
        [orgId, machineId],
      ),
    );
    if (!row) throw notFound('Machine');
    this.verifier.forgetHash(row.token_hash);
    return { machine_id: machineId, revoked_at: row.revoked_at.toISOString() };
  }
}
