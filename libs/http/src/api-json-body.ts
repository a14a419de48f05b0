import { ApiBody } from '@nestjs/swagger';
import { z } from 'zod';

/** Documents a request body with the JSON Schema of the zod schema that validates it, so the two cannot drift. */
export const ApiJsonBody = (schema: z.ZodType, description?: string) =>
  ApiBody({
    description,
    schema: z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >,
  });
