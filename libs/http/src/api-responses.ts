import { applyDecorators } from '@nestjs/common';
import { ApiResponse, SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

const errorBody = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };

const ERRORS: Record<number, string> = {
  400: 'Invalid body, query or id: `{"error": "…", "details"?: [{index, path, message}]}`',
  404: 'Unknown id, or an id of another organization: `{"error": "… not found"}`',
  413: 'More than 1000 items, or a body over 5 MB (also once gzip-decompressed)',
  415: 'Not `application/json`, or a Content-Encoding other than gzip',
  503:
    'Kafka did not acknowledge in time, or the organization’s database is not routable now (being created, upgraded or ' +
    'removed; with `Retry-After` in seconds): nothing of the request was accepted; retry',
};

/**
 * The OpenAPI 3.0 schema of an answer's body, from the zod schema of what the code returns (its
 * output side: the console clients generated from the document read bodies, never send them).
 * Anything zod cannot express in JSON Schema throws here, at boot, rather than documenting `{}`.
 */
export function responseSchema(schema: z.ZodType): SchemaObject {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'output' });
  listNullInNullableEnums(json);
  return json as SchemaObject;
}

/**
 * OpenAPI 3.0.3 says `nullable` does not widen an `enum`: a nullable enum allows null only when it
 * lists it, and zod's rendering does not (a validator would refuse `"risk_level": null`).
 */
function listNullInNullableEnums(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  for (const child of Object.values(schema)) listNullInNullableEnums(child);
}

/**
 * The success answer and the error answers a route can give, all with the `{error}` body; `body`
 * is the zod schema of the success answer's body, when it is JSON.
 */
export const ApiAnswers = (status: 200 | 201, description: string, errors: (keyof typeof ERRORS)[], body?: z.ZodType) =>
  applyDecorators(
    ApiResponse({ status, description, ...(body && { schema: responseSchema(body) }) }),
    ...errors.map((code) => ApiResponse({ status: code, description: ERRORS[code], schema: errorBody })),
  );

export const INGEST_ERRORS = [400, 413, 415, 503] as const;
export const READ_ERRORS = [400, 404] as const;
