/// <reference types="jest" />
import {
  emptyRequest,
  errorsFromDetail,
  RequestValues,
  requestBody,
  textProblem,
  validateRequest,
} from './request-form';

const valid: RequestValues = {
  ...emptyRequest,
  slug: 'acme-corp',
  name: 'Acme Corp',
  owner_email: 'ops@acme.test',
  region: 'eu-1',
};

describe('validateRequest', () => {
  it('accepts a complete request', () => {
    expect(validateRequest(valid)).toEqual({});
  });

  it("words each refusal as the control plane does, '<field>: <rule>'", () => {
    expect(
      validateRequest({ ...valid, slug: 'Acme_Corp', owner_email: 'ops.acme.test', plan_tier: 'trial', name: ' ' }),
    ).toEqual({
      slug: 'slug: lower-case letters, digits and inner hyphens only',
      name: 'name: required',
      owner_email: 'owner_email: must contain @',
      plan_tier: 'plan_tier: one of core, team, enterprise',
    });
  });

  it('refuses a slug over 56 characters (the database name tenant_<slug> fits 63 bytes)', () => {
    expect(validateRequest({ ...valid, slug: 'a'.repeat(56) }).slug).toBeUndefined();
    expect(validateRequest({ ...valid, slug: 'a'.repeat(57) }).slug).toBe('slug: at most 56 characters');
  });

  it('refuses an edge hyphen and an empty slug', () => {
    expect(validateRequest({ ...valid, slug: '-acme' }).slug).toMatch(/^slug: /);
    expect(validateRequest({ ...valid, slug: '' }).slug).toMatch(/^slug: /);
  });

  it('offers only shared isolation', () => {
    expect(validateRequest({ ...valid, isolation: 'dedicated' }).isolation).toBe('isolation: only shared is offered');
  });

  it('counts notes up to 2000 characters', () => {
    expect(validateRequest({ ...valid, notes: 'x'.repeat(2000) }).notes).toBeUndefined();
    expect(validateRequest({ ...valid, notes: 'x'.repeat(2001) }).notes).toBe('notes: at most 2000 characters');
  });

  it('takes endpoint counts as whole numbers or nothing', () => {
    expect(validateRequest({ ...valid, dev_endpoints: '12', server_endpoints: '' })).toEqual({});
    expect(validateRequest({ ...valid, dev_endpoints: '-1' }).dev_endpoints).toMatch(/^dev_endpoints: /);
    expect(validateRequest({ ...valid, server_endpoints: '2.5' }).server_endpoints).toMatch(/^server_endpoints: /);
  });

  it('refuses text the database cannot store', () => {
    expect(validateRequest({ ...valid, name: 'a\u0000b' }).name).toMatch(/NUL/);
    expect(validateRequest({ ...valid, notes: '\uD800' }).notes).toMatch(/surrogate/);
  });
});

describe('requestBody', () => {
  it('leaves empty optional fields out and sends counts as numbers', () => {
    expect(requestBody({ ...valid, dev_endpoints: ' 3 ' })).toEqual({
      slug: 'acme-corp',
      name: 'Acme Corp',
      owner_email: 'ops@acme.test',
      region: 'eu-1',
      plan_tier: 'core',
      isolation: 'shared',
      security_profile_target: 'monitor',
      dev_endpoints: 3,
      server_endpoints: undefined,
      notes: undefined,
    });
  });
});

describe('errorsFromDetail', () => {
  it("splits the server's detail by the fields it names", () => {
    expect(errorsFromDetail('slug: at most 56 characters; plan_tier: one of core, team, enterprise')).toEqual({
      fields: { slug: 'slug: at most 56 characters', plan_tier: 'plan_tier: one of core, team, enterprise' },
      rest: [],
    });
  });

  it('keeps what names no field of the form for the form as a whole', () => {
    expect(errorsFromDetail('a live flow already exists for acme')).toEqual({
      fields: {},
      rest: ['a live flow already exists for acme'],
    });
    expect(errorsFromDetail('colour: unknown field; slug: at most 56 characters').rest).toEqual([
      'colour: unknown field',
    ]);
  });
});

describe('textProblem', () => {
  it('asks for 3 characters of reason and 20 of justification, trimmed', () => {
    expect(textProblem('reason', '  ab  ')).toBe('reason: at least 3 characters');
    expect(textProblem('reason', 'abc')).toBeNull();
    expect(textProblem('justification', 'x'.repeat(19))).toBe('justification: at least 20 characters');
    expect(textProblem('justification', 'x'.repeat(20))).toBeNull();
  });
});
