import { Identity, JwtIdentityResolver } from '@agentwatch/auth';
import { OrgScope } from '@agentwatch/db';
import { organizationView } from './organizations';
import { CreateOrganization, CreateOrganizationHandler } from './organizations/create-organization';

const identity: Identity = {
  orgId: null,
  credential: 'jwt',
  credentialId: 'alice',
  machineId: null,
  subject: 'alice',
};

describe('POST /v1/tenant', () => {
  it('answers the documented organization', async () => {
    const created = { id: '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b', name: 'Acme', created_at: new Date() };
    const query = async (sql: string) => (sql.startsWith('INSERT INTO organizations') ? [created] : []);
    const scope = { run: (_: string, work: (q: unknown) => unknown) => work({ query }) } as unknown as OrgScope;
    const identities = { remember: () => undefined } as unknown as JwtIdentityResolver;
    const answer = await new CreateOrganizationHandler(scope, identities).execute(
      new CreateOrganization(identity, { name: 'Acme' }),
    );
    // parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
    expect(organizationView.parse(answer)).toEqual(answer);
  });
});
