import { responseSchema } from '@agentwatch/http';
import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { z } from 'zod';

const errorBody = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };

const ERRORS = {
  400: 'Malformed query or id: `{"error": "…"}`',
  404: 'Another customer’s id, an unknown event, or nothing stored yet: `{"error": "… not found"}`',
  409: 'POST when the customer already has a policy: use PUT',
  422: 'Invalid policy: `{"error":"Invalid policy", "details":[{path, message}]}`',
  503: 'The event broker did not acknowledge the policy change: nothing was saved; retry',
} as const;

/**
 * The success answer of a scoring route and the error answers it can give, each with its `{error}`
 * body; `body` is the zod schema of the success answer's body.
 */
export const ScoringAnswers = (
  status: 200 | 201,
  description: string,
  errors: (keyof typeof ERRORS)[],
  body?: z.ZodType,
) =>
  applyDecorators(
    ApiResponse({ status, description, ...(body && { schema: responseSchema(body) }) }),
    ...errors.map((code) => ApiResponse({ status: code, description: ERRORS[code], schema: errorBody })),
  );
