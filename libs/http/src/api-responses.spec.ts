import { z } from 'zod';
import { responseSchema } from './api-responses';

describe('responseSchema', () => {
  it('renders OpenAPI 3.0, which @nestjs/swagger documents: `nullable`, never a type array or `$schema`', () => {
    const schema = responseSchema(z.object({ id: z.uuid(), next_cursor: z.string().nullable() }));
    expect(schema).toEqual({
      type: 'object',
      properties: {
        id: expect.objectContaining({ type: 'string', format: 'uuid' }),
        next_cursor: { type: 'string', nullable: true },
      },
      required: ['id', 'next_cursor'],
      additionalProperties: false,
    });
  });

  it('lists null in a nullable enum, which OpenAPI 3.0.3 requires for null to be allowed', () => {
    const schema = responseSchema(z.object({ level: z.enum(['low', 'high']).nullable() }));
    expect(schema.properties?.level).toEqual({ type: 'string', nullable: true, enum: ['low', 'high', null] });
  });

  it('describes the output side: a defaulted field is always present in the body', () => {
    const schema = responseSchema(z.object({ limit: z.number().default(100) }));
    expect(schema.required).toEqual(['limit']);
  });

  it('refuses what JSON Schema cannot say, so a route never documents a body as anything', () => {
    expect(() => responseSchema(z.object({ at: z.date() }))).toThrow();
  });
});
