import { mintMachineToken, Principal, ServiceTokenVerifier } from '@agentwatch/auth';
import { storable, validateBody } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { invalidBody } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { Checkins } from './checkins';
import { RegisteredMachine } from './machine-view';

const fact = storable(z.string().trim().min(1).max(256)).nullish();

export const registerMachineBody = z.object({
  machine_id: storable(z.string().trim().min(1).max(256)),
  hostname: fact,
  os: fact,
  arch: fact,
  daemon_version: fact,
});

/** POST /v1/machines/register: a deploy token buys a long-lived per-machine service token; registering again rotates it. */
export class RegisterMachine extends Command<RegisteredMachine> {
  constructor(
    readonly principal: Principal,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(RegisterMachine)
export class RegisterMachineHandler implements ICommandHandler<RegisterMachine> {
  constructor(
    private readonly db: OrgScope,
    private readonly verifier: ServiceTokenVerifier,
    private readonly checkins: Checkins,
  ) {}

  async execute({ principal, body }: RegisterMachine): Promise<RegisteredMachine> {
    const validated = validateBody(registerMachineBody, body);
    if (!validated.ok) throw invalidBody(validated.issues);
    const { machine_id, ...facts } = validated.value;
    const machineFacts = {
      hostname: facts.hostname ?? null,
      os: facts.os ?? null,
      arch: facts.arch ?? null,
      daemon_version: facts.daemon_version ?? null,
    };
    const token = mintMachineToken();
    const previousHash = await this.db.run(principal.orgId, async (q) => {
      const [previous] = await q.query('SELECT token_hash FROM machines WHERE org_id = $1 AND id = $2 FOR UPDATE', [
        principal.orgId,
        machine_id,
      ]);
      await q.query(
        `INSERT INTO machines (org_id, id, hostname, os, arch, daemon_version, token_hash, token_prefix, deploy_token_id, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
         ON CONFLICT (org_id, id) DO UPDATE SET hostname = EXCLUDED.hostname, os = EXCLUDED.os, arch = EXCLUDED.arch,
           daemon_version = EXCLUDED.daemon_version, token_hash = EXCLUDED.token_hash, token_prefix = EXCLUDED.token_prefix,
           deploy_token_id = EXCLUDED.deploy_token_id, rotated_at = now(), revoked_at = NULL, last_seen_at = now()`,
        [
          principal.orgId,
          machine_id,
          machineFacts.hostname,
          machineFacts.os,
          machineFacts.arch,
          machineFacts.daemon_version,
          token.hash,
          token.prefix,
          principal.credentialId,
        ],
      );
      return previous?.token_hash as string | undefined;
    });
    if (previousHash) this.verifier.forgetHash(previousHash);
    await this.checkins.registered(principal.orgId, machine_id, machineFacts);
    return { machine_id, service_token: token.raw, org_id: principal.orgId };
  }
}
