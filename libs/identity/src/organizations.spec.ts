import { Identity, JwtIdentityResolver } from '@agentwatch/auth';
import { OrgScope } from '@agentwatch/db';
import { organizationView } from './organizations';
import { CreateOrganization, CreateOrganizationHandler } from './organizations/create-organization';
import { GetOrganization, GetOrganizationHandler } from './organizations/get-organization';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const identity: Identity = {
  orgId: null,
  credential: 'jwt',
  credentialId: 'alice',
  machineId: null,
  subject: 'alice',
};
const stored = { id: ORG, name: 'Acme', created_at: new Date() };

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
describe('the documented organization', () => {
  it('POST /v1/tenant', async () => {
    const query = async (sql: string) => (sql.startsWith('INSERT INTO organizations') ? [stored] : []);
    const scope = { run: (_: string, work: (q: unknown) => unknown) => work({ query }) } as unknown as OrgScope;
    const identities = { remember: () => undefined } as unknown as JwtIdentityResolver;
    const answer = await new CreateOrganizationHandler(scope, identities).execute(
      new CreateOrganization(identity, { name: 'Acme' }),
    );
    expect(organizationView.parse(answer)).toEqual(answer);
  });

  it('GET /v1/tenant', async () => {
    const scope = { run: (_: string, work: (q: unknown) => unknown) => work({ query: async () => [stored] }) };
    const answer = await new GetOrganizationHandler(scope as unknown as OrgScope).execute(new GetOrganization(ORG));
    expect(organizationView.parse(answer)).toEqual(answer);
  });
});
