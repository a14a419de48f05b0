import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

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

/** The success answer and the error answers a route can give, all with the `{error}` body. */
export const ApiAnswers = (status: 200 | 201, description: string, errors: (keyof typeof ERRORS)[]) =>
  applyDecorators(
    ApiResponse({ status, description }),
    ...errors.map((code) => ApiResponse({ status: code, description: ERRORS[code], schema: errorBody })),
  );

export const INGEST_ERRORS = [400, 413, 415, 503] as const;
export const READ_ERRORS = [400, 404] as const;
