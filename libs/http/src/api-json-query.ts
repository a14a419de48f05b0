import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { z } from 'zod';

/**
 * Documents a route's query parameters from the zod object that validates them (one `ApiQuery` per
 * field, with its JSON Schema), so a filter cannot exist without showing in the OpenAPI document.
 */
export const ApiJsonQuery = (schema: z.ZodObject) => {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
  };
  return applyDecorators(
    ...Object.entries(json.properties ?? {}).map(([name, property]) =>
      ApiQuery({ name, required: false, schema: property, description: property.description as string | undefined }),
    ),
  );
};

/** The keyset paging parameters every list route takes (default 100 and at most 1,000 per page). */
export const pagingQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional().describe('page size, 1 to 1000 (default 100)'),
  cursor: z
    .string()
    .optional()
    .describe('`next_cursor` of the previous page; a cursor the API did not issue answers 400 `Invalid cursor`'),
});
