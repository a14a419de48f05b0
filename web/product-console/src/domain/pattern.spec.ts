/// <reference types="jest" />
import { patternListErrors, patternShapeError } from './pattern';

describe('patternShapeError', () => {
  it.each([
    'file:/etc/passwd:read',
    'file:*:delete',
    '*:*:*',
    'network:*.example.com:connect',
    'file:C:\\Users\\x:write',
    'mcp:github.create_issue:call',
  ])('accepts %s', (pattern) => {
    expect(patternShapeError(pattern)).toBeNull();
  });

  it.each(['file', 'file:read', 'file::read', ':x:read', 'file:x:', '*', '*:*'])('refuses %s', (pattern) => {
    expect(patternShapeError(pattern)).toBe('must have three non-empty colon-separated segments: domain:scope:verb');
  });

  it('refuses empty text and surrounding spaces', () => {
    expect(patternShapeError('')).toMatch(/non-empty/);
    expect(patternShapeError(' file:x:read')).toMatch(/surrounding spaces/);
  });
});

describe('patternListErrors', () => {
  it('names each refused entry', () => {
    expect(patternListErrors(['file:x:read', 'oops'])).toEqual([
      '"oops" must have three non-empty colon-separated segments: domain:scope:verb',
    ]);
  });
});
