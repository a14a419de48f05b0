import { createRemoteJWKSet, jwtVerify } from 'jose';
import { FakeIdentityProvider } from './fake-idp';

describe('the fake identity provider', () => {
  let idp: FakeIdentityProvider;

  beforeAll(async () => {
    idp = await FakeIdentityProvider.start({ issuer: 'https://idp.test', audience: 'agentwatch' });
  });

  afterAll(() => idp.stop());

  it('signs tokens that verify against its published key set, and forged ones that do not', async () => {
    const keys = createRemoteJWKSet(new URL(idp.jwksUrl));
    const { payload } = await jwtVerify(await idp.token({ sub: 'alice' }), keys, {
      issuer: 'https://idp.test',
      audience: 'agentwatch',
    });
    expect(payload.sub).toBe('alice');
    await expect(jwtVerify(await idp.token({ sub: 'mallory' }, { foreignKey: true }), keys)).rejects.toThrow();
  });
});
