import { Principal, ServiceTokenVerifier } from '@agentwatch/auth';
import { OrgScope } from '@agentwatch/db';
import { Checkins } from './checkins';
import { ListMachines, ListMachinesHandler } from './list-machines';
import { MachineRow, machineList, registeredMachine, revokedMachine } from './machine-view';
import { RegisterMachine, RegisterMachineHandler } from './register-machine';
import { RevokeMachine, RevokeMachineHandler } from './revoke-machine';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const enrolled: MachineRow = {
  id: 'laptop-1',
  hostname: 'laptop-1.local',
  os: 'linux',
  arch: 'x64',
  daemon_version: '1.4.0',
  token_prefix: 'svc_machine_abc123',
  deploy_token_id: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
  registered_at: new Date('2026-10-01T08:00:00.000Z'),
  rotated_at: new Date('2026-10-01T08:00:00.000Z'),
  first_ingest_at: new Date('2026-10-01T08:01:00.000Z'),
  last_seen_at: new Date('2026-10-01T09:00:00.000Z'),
  revoked_at: null,
};
// Enrolled before the deploy token and the last use were kept, never ingested, revoked.
const old: MachineRow = {
  ...enrolled,
  id: 'build-box',
  hostname: null,
  os: null,
  arch: null,
  daemon_version: null,
  deploy_token_id: null,
  first_ingest_at: null,
  last_seen_at: null,
  revoked_at: new Date('2026-10-02T08:00:00.000Z'),
};

/** A scope whose queries all answer these rows. */
const answering = (rows: unknown[]) =>
  ({
    run: (_orgId: string, work: (q: unknown) => unknown) => work({ query: async () => rows }),
  }) as unknown as OrgScope;
const verifier = { forgetHash: () => undefined } as unknown as ServiceTokenVerifier;

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented (a hash, say).
describe('the documented machine answers', () => {
  it('GET /v1/machines', async () => {
    const list = await new ListMachinesHandler(answering([enrolled, old])).execute(new ListMachines(ORG));
    expect(list.machines).toHaveLength(2);
    expect(machineList.parse(list)).toEqual(list);
  });

  it('POST /v1/machines/register', async () => {
    const principal: Principal = {
      orgId: ORG,
      credential: 'deploy-token',
      credentialId: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
      machineId: null,
      subject: null,
    };
    const checkins = { registered: async () => undefined } as unknown as Checkins;
    const answer = await new RegisterMachineHandler(answering([]), verifier, checkins).execute(
      new RegisterMachine(principal, { machine_id: 'laptop-1', hostname: 'laptop-1.local' }),
    );
    expect(answer.service_token.startsWith('svc_machine_')).toBe(true);
    expect(registeredMachine.parse(answer)).toEqual(answer);
  });

  it('DELETE /v1/machines/{machineId}', async () => {
    // TypeORM answers an UPDATE … RETURNING with [rows, count].
    const revoked = { token_hash: 'f'.repeat(64), revoked_at: new Date('2026-10-02T08:00:00.000Z') };
    const answer = await new RevokeMachineHandler(answering([[revoked], 1]), verifier).execute(
      new RevokeMachine(ORG, 'laptop-1'),
    );
    expect(revokedMachine.parse(answer)).toEqual(answer);
  });
});
