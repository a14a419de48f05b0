import { storable } from '@agentwatch/contracts';
import { z } from 'zod';

export const PLAN_TIERS = ['core', 'team', 'enterprise'] as const;
export const ISOLATIONS = ['shared', 'dedicated', 'self-hosted'] as const;
export const MAX_SLUG_LENGTH = 56;
export const SLUG_SHAPE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const FIELDS = [
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

/** The tenant request body of spec §2 (its JSON Schema is what the OpenAPI document shows). */
export const tenantRequestSchema = z.object({
  slug: z
    .string()
    .max(MAX_SLUG_LENGTH, `slug: at most ${MAX_SLUG_LENGTH} characters`)
    .regex(SLUG_SHAPE, 'slug: lower-case letters, digits and inner hyphens only'),
  name: storable(z.string().trim().min(1, 'name: required').max(200)),
  owner_email: storable(z.string()).regex(/^[^@\s]+@[^@\s]+$/, 'owner_email: must contain @'),
  region: storable(z.string().min(1, 'region: required').max(64)),
  plan_tier: z.enum(PLAN_TIERS, 'plan_tier: one of core, team, enterprise'),
  isolation: z.literal('shared', 'isolation: only shared is offered'),
  security_profile_target: z.enum(['monitor', 'enforce']).default('monitor'),
  dev_endpoints: z.number().int().min(0).nullish(),
  server_endpoints: z.number().int().min(0).nullish(),
  notes: storable(z.string().max(2000, 'notes: at most 2000 characters')).nullish(),
});

export type TenantRequest = z.infer<typeof tenantRequestSchema>;

/** `bad_request` is the shape of the body (400), `unprocessable` a rule of a field (422): spec §7. */
export type RequestVerdict =
  | { ok: true; value: TenantRequest }
  | { ok: false; error: 'bad_request' | 'unprocessable'; detail: string };

/**
 * Every refusal's `detail` starts with the field at fault, `<field>: <rule>` (several joined by
 * "; "), so an operator or a script can tell which field to fix; `body:` when the document as a
 * whole is refused. The spec shows the `error` codes only; this is the shape of `detail`.
 */
export const fieldDetail = (field: string, rule: string) => `${field}: ${rule}`;

export const NOT_AN_OBJECT = fieldDetail('body', 'must be a JSON object');
export const NOT_ONE_DOCUMENT = fieldDetail('body', 'not one well-formed JSON document');

export const unknownFields = (names: string[]) => names.map((name) => fieldDetail(name, 'unknown field')).join('; ');

/** Zod's own messages ("Invalid input: expected string, received undefined") do not name the field. */
function fieldMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return issue.message.startsWith(`${field}: `) ? issue.message : fieldDetail(field, issue.message);
}

export function parseTenantRequest(body: unknown): RequestVerdict {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: 'bad_request', detail: NOT_AN_OBJECT };
  }
  if ('gateways' in body)
    return { ok: false, error: 'unprocessable', detail: 'gateways: not accepted on this surface' };
  const unknown = Object.keys(body).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) return { ok: false, error: 'bad_request', detail: unknownFields(unknown) };
  const parsed = tenantRequestSchema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: 'unprocessable', detail: parsed.error.issues.map(fieldMessage).join('; ') };
}

/** `{reason}` / `{justification}` bodies: exactly one string field. */
export function parseTextBody(
  body: unknown,
  field: 'reason' | 'justification',
): RequestVerdict | { ok: true; text: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: 'bad_request', detail: NOT_AN_OBJECT };
  }
  const unknown = Object.keys(body).filter((k) => k !== field);
  if (unknown.length > 0) return { ok: false, error: 'bad_request', detail: unknownFields(unknown) };
  const value = (body as Record<string, unknown>)[field];
  if (typeof value !== 'string') return { ok: false, error: 'unprocessable', detail: `${field}: required string` };
  return { ok: true, text: value };
}

export const reasonBodySchema = z.strictObject({ reason: storable(z.string().min(3)) });
export const justificationBodySchema = z.strictObject({ justification: storable(z.string().min(20)) });
