/**
 * Why a batch's transaction failed, as far as the runner must know: a *content* error is the
 * database refusing what a record says (the same record is refused again on every retry, so
 * retrying it stalls its partition for good); anything else is *transient* (a connection, a lock,
 * a shutdown, a missing table during a deploy) and is retried, the whole batch, as it is.
 */
export type FailureKind = 'content' | 'transient';

/**
 * SQLSTATE classes whose errors depend on the data written, not on the moment: 21 cardinality
 * (ON CONFLICT affecting a row twice), 22 data exception (a NUL byte, a value out of range), 23
 * integrity constraint (CHECK, NOT NULL, foreign key, unique), 54 program limit (an index row too
 * large). Class 42 (syntax, undefined table) is left transient on purpose: it is a deploy or code
 * fault, and dead-lettering every record until it is fixed would empty the partition into the DLQ.
 */
const CONTENT_CLASSES = new Set(['21', '22', '23', '54']);

const SQLSTATE = /^[0-9A-Z]{5}$/;

interface ServerError {
  code?: unknown;
  severity?: unknown;
}

/**
 * The error's SQLSTATE, from a pg error or TypeORM's QueryFailedError around one; undefined when it
 * has none. Only an error the server sent counts (it carries a severity): Node's own errors carry
 * codes too, and `EPIPE` has the shape of a SQLSTATE.
 */
export function sqlstateOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  for (const candidate of [(error as { driverError?: ServerError }).driverError, error as ServerError]) {
    if (typeof candidate?.severity === 'string' && typeof candidate.code === 'string' && SQLSTATE.test(candidate.code))
      return candidate.code;
  }
  return undefined;
}

export function classifyFailure(error: unknown): FailureKind {
  const state = sqlstateOf(error);
  return state !== undefined && CONTENT_CLASSES.has(state.slice(0, 2)) ? 'content' : 'transient';
}

/**
 * What a failed batch is reported as to kafkajs, which logs the error it is handed with all of its
 * properties: TypeORM's QueryFailedError carries the statement's parameters, the records' content.
 * Only the message and the SQLSTATE go on.
 */
export function withoutRecordContent(error: unknown, where: string): Error {
  const state = sqlstateOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${where}: ${message}${state ? ` (SQLSTATE ${state})` : ''}`);
}
