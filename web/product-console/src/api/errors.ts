import { ApiError } from '../../../shared/api-client';

/** An error as a sentence: the API's message, and its `details` (which field, what is wrong) when it gave any. */
export function describeError(error: Error): string {
  if (!(error instanceof ApiError) || !error.body.details?.length) return error.message;
  const details = error.body.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message));
  return `${error.message} (${details.join('; ')})`;
}
