// The tenant request form's rules: the control plane's (libs/tenancy tenant-request.ts, spec §2 and
// §7) with its messages, `<field>: <rule>`, so the form says at once what the server would say.

export const PLAN_TIERS = ['core', 'team', 'enterprise'] as const;
export const ISOLATIONS = ['shared', 'dedicated', 'self-hosted'] as const;
export const PROFILE_TARGETS = ['monitor', 'enforce'] as const;
export const MAX_SLUG_LENGTH = 56;
export const MAX_NOTES_LENGTH = 2000;
const SLUG_SHAPE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const EMAIL_SHAPE = /^[^@\s]+@[^@\s]+$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const FIELDS = [
  'slug',
  'name',
  'owner_email',
  'region',
  'plan_tier',
  'isolation',
  'security_profile_target',
  'dev_endpoints',
  'server_endpoints',
  'notes',
] as const;
export type Field = (typeof FIELDS)[number];

/** The form as typed: text everywhere, counts as typed digits. */
export type RequestValues = Record<Field, string>;
export type FieldErrors = Partial<Record<Field, string>>;

export const emptyRequest: RequestValues = {
  slug: '',
  name: '',
  owner_email: '',
  region: '',
  plan_tier: 'core',
  isolation: 'shared',
  security_profile_target: 'monitor',
  dev_endpoints: '',
  server_endpoints: '',
  notes: '',
};

function storableProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (it holds a lone surrogate)';
  return null;
}

const isCount = (text: string) => text.trim() === '' || /^\d{1,9}$/.test(text.trim());

/** Every rule a field breaks, as the server words it; several joined by "; " like its detail. */
function problemsOf(field: Field, value: string): string[] {
  const found: string[] = [];
  const storable = storableProblem(value);
  if (storable && ['name', 'owner_email', 'region', 'notes'].includes(field)) found.push(storable);
  switch (field) {
    case 'slug':
      if (value.length > MAX_SLUG_LENGTH) found.push(`at most ${MAX_SLUG_LENGTH} characters`);
      if (!SLUG_SHAPE.test(value)) found.push('lower-case letters, digits and inner hyphens only');
      break;
    case 'name':
      if (value.trim() === '') found.push('required');
      else if (value.trim().length > 200) found.push('at most 200 characters');
      break;
    case 'owner_email':
      if (!EMAIL_SHAPE.test(value)) found.push('must contain @');
      break;
    case 'region':
      if (value === '') found.push('required');
      else if (value.length > 64) found.push('at most 64 characters');
      break;
    case 'plan_tier':
      if (!(PLAN_TIERS as readonly string[]).includes(value)) found.push('one of core, team, enterprise');
      break;
    case 'isolation':
      if (value !== 'shared') found.push('only shared is offered');
      break;
    case 'security_profile_target':
      if (!(PROFILE_TARGETS as readonly string[]).includes(value)) found.push('one of monitor, enforce');
      break;
    case 'dev_endpoints':
    case 'server_endpoints':
      if (!isCount(value)) found.push('a whole number, 0 or more');
      break;
    case 'notes':
      if (value.length > MAX_NOTES_LENGTH) found.push(`at most ${MAX_NOTES_LENGTH} characters`);
      break;
  }
  return found.map((rule) => `${field}: ${rule}`);
}

export function validateRequest(values: RequestValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of FIELDS) {
    const problems = problemsOf(field, values[field]);
    if (problems.length > 0) errors[field] = problems.join('; ');
  }
  return errors;
}

/** The body of POST /v1/tenants: optional fields left out when empty. */
export function requestBody(values: RequestValues) {
  const count = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));
  return {
    slug: values.slug,
    name: values.name,
    owner_email: values.owner_email,
    region: values.region,
    plan_tier: values.plan_tier as (typeof PLAN_TIERS)[number],
    isolation: values.isolation as 'shared',
    security_profile_target: values.security_profile_target as (typeof PROFILE_TARGETS)[number],
    dev_endpoints: count(values.dev_endpoints),
    server_endpoints: count(values.server_endpoints),
    notes: values.notes === '' ? undefined : values.notes,
  };
}

/**
 * The server's `detail` split by the field each part names (`slug: at most 56 characters; plan_tier: …`);
 * what names no field of the form (`body: …`, `gateways: …`) stays for the form as a whole.
 */
export function errorsFromDetail(detail: string): { fields: FieldErrors; rest: string[] } {
  const fields: FieldErrors = {};
  const rest: string[] = [];
  for (const part of detail.split('; ')) {
    const name = /^([a-z_]+): /.exec(part)?.[1];
    if (name && (FIELDS as readonly string[]).includes(name)) {
      const field = name as Field;
      fields[field] = fields[field] ? `${fields[field]}; ${part}` : part;
    } else if (part.trim() !== '') rest.push(part);
  }
  return { fields, rest };
}

/** A reason (reject, cancel) or justification (deprovision) as the control plane judges it, trimmed. */
export function textProblem(field: 'reason' | 'justification', text: string): string | null {
  const least = field === 'reason' ? 3 : 20;
  return text.trim().length < least ? `${field}: at least ${least} characters` : null;
}
