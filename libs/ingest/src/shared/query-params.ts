import { validateBody } from '@agentwatch/contracts';
import { HttpException } from '@nestjs/common';
import { z } from 'zod';
import { CursorId, PageRequest, pageRequest } from './pagination';

export const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true');
export const riskParam = z.coerce.number().int().min(0).max(100);

/** Validates a query string against a schema: 400 `{error:'Invalid query', details}` on failure. */
export function readQuery<S extends z.ZodType>(
  schema: S,
  query: Record<string, unknown>,
  idKind: CursorId = 'uuid',
): z.infer<S> & { page: PageRequest } {
  const { limit, cursor, ...rest } = query;
  const validated = validateBody(schema, rest);
  if (!validated.ok) throw new HttpException({ error: 'Invalid query', details: validated.issues }, 400);
  return {
    ...(validated.value as object),
    page: pageRequest({ limit, cursor }, idKind),
  } as z.infer<S> & {
    page: PageRequest;
  };
}
