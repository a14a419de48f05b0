/// <reference types="jest" />
import { canApprove, canWrite, roleOf } from './roles';

describe('roles', () => {
  it('reads the role claim; anything but operator is a viewer', () => {
    expect(roleOf({ role: 'operator' })).toBe('operator');
    expect(roleOf({ role: 'viewer' })).toBe('viewer');
    expect(roleOf({ role: 'admin' })).toBe('viewer');
    expect(roleOf({})).toBe('viewer');
    expect(roleOf(undefined)).toBe('viewer');
  });

  it('lets operators write and approve what someone else requested', () => {
    expect(canWrite('operator')).toBe(true);
    expect(canWrite('viewer')).toBe(false);
    expect(canApprove('operator', 'bob', 'alice')).toBe(true);
    expect(canApprove('operator', 'alice', 'alice')).toBe(false);
    expect(canApprove('viewer', 'bob', 'alice')).toBe(false);
    expect(canApprove('operator', undefined, 'alice')).toBe(false);
  });
});
