import type { z } from 'zod';

export interface ValidationIssue {
  index: number | null;
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

const joinPath = (path: PropertyKey[]) => path.map(String).join('.');

/**
 * Validates a body whose `events` array is a batch; an issue inside the array reports the item's
 * index and the path within the item, so a daemon can tell which record of 1000 was refused.
 */
export function validateBody<S extends z.ZodType>(schema: S, body: unknown, batchKey?: string): Validated<z.infer<S>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => {
      const [head, index, ...rest] = issue.path;
      if (batchKey !== undefined && head === batchKey && typeof index === 'number') {
        return { index, path: joinPath(rest), message: issue.message };
      }
      return { index: null, path: joinPath(issue.path), message: issue.message };
    }),
  };
}
