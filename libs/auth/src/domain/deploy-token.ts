import { createHash, randomBytes } from 'node:crypto';

export const DEPLOY_TOKEN_PREFIX = 'svc_deploy_';
/** Per-machine service tokens: issued by registration, accepted wherever a deploy token is. */
export const MACHINE_TOKEN_PREFIX = 'svc_machine_';

export interface MintedToken {
  /** Shown to the caller exactly once; never stored, logged or journaled. */
  raw: string;
  hash: string;
  /** Enough to recognise a token in a list without revealing it. */
  prefix: string;
}

export const hashToken = (raw: string): string => createHash('sha256').update(raw, 'utf8').digest('hex');

export function mintToken(kindPrefix: string, random: (size: number) => Buffer = randomBytes): MintedToken {
  const raw = kindPrefix + random(32).toString('base64url');
  return { raw, hash: hashToken(raw), prefix: raw.slice(0, kindPrefix.length + 6) };
}

export const mintDeployToken = (random?: (size: number) => Buffer) => mintToken(DEPLOY_TOKEN_PREFIX, random);

export const mintMachineToken = (random?: (size: number) => Buffer) => mintToken(MACHINE_TOKEN_PREFIX, random);

export type ServiceTokenKind = 'deploy-token' | 'service-token';

/** Which kind of service token a raw bearer value claims to be, by its prefix; null for anything else. */
export function serviceTokenKind(raw: string): ServiceTokenKind | null {
  if (raw.length > 200) return null;
  if (raw.startsWith(DEPLOY_TOKEN_PREFIX) && raw.length > DEPLOY_TOKEN_PREFIX.length + 6) return 'deploy-token';
  if (raw.startsWith(MACHINE_TOKEN_PREFIX) && raw.length > MACHINE_TOKEN_PREFIX.length + 6) return 'service-token';
  return null;
}
