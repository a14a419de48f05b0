import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDevIssuerKeys, mintDevToken } from '@agentwatch/auth';
import { call, createOrganization, startStack } from '@agentwatch/testing';

describe('a test stack and the development issuer', () => {
  it('trusts development tokens though no key was made before it started', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-issuer-'));
    const keys = path.join(parent, 'keys');
    const stack = await startStack('e2e-dev-issuer', { AUTH_DEV_ISSUER_DIR: keys });
    try {
      // What a suite that mints tokens does after its stack is up: too late for the API to read the key.
      await ensureDevIssuerKeys(keys);
      const { orgId } = await createOrganization('dev issuer', stack.env);
      const jwt = await mintDevToken(keys, { sub: 'dev', org_id: orgId }, 60);
      expect(await call(`${stack.apiUrl}/v1/deploy-tokens`, { token: jwt })).toMatchObject({
        status: 200,
        body: { deploy_tokens: [expect.objectContaining({ name: 'test' })] },
      });
    } finally {
      await stack.stop();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
