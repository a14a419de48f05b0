import { createHash } from 'node:crypto';
import { DEPLOY_TOKEN_PREFIX, hashToken, mintDeployToken, mintMachineToken, serviceTokenKind } from './deploy-token';

describe('deploy tokens', () => {
  it('are svc_deploy_ plus 32 random bytes, stored only as their SHA-256', () => {
    const fixed = Buffer.alloc(32, 7);
    const minted = mintDeployToken(() => fixed);
    expect(minted.raw).toBe(DEPLOY_TOKEN_PREFIX + fixed.toString('base64url'));
    expect(minted.hash).toBe(createHash('sha256').update(minted.raw).digest('hex'));
    expect(minted.prefix).toBe(minted.raw.slice(0, DEPLOY_TOKEN_PREFIX.length + 6));
    expect(minted.hash).not.toContain(minted.raw.slice(DEPLOY_TOKEN_PREFIX.length));
  });

  it('differ on every mint', () => {
    expect(mintDeployToken().raw).not.toBe(mintDeployToken().raw);
  });

  it('hash deterministically', () => {
    expect(hashToken('svc_deploy_abc')).toBe(hashToken('svc_deploy_abc'));
  });

  it.each([
    ['svc_deploy_abcdefgh', 'deploy-token'],
    [mintMachineToken().raw, 'service-token'],
    ['svc_deploy_', null],
    ['eyJhbGciOiJFUzI1NiJ9.x.y', null],
    [`svc_deploy_${'a'.repeat(300)}`, null],
  ])('tell the kind of %s: %s', (raw, expected) => {
    expect(serviceTokenKind(raw)).toBe(expected);
  });
});
