import { CelResult, CelScalar, celEnv, isCelError, listType, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/**
 * What a custom rule's CEL condition can read. Flat names keep conditions short:
 * `verb == "delete" && scope.startsWith("/etc/")`, `arguments.exists(a, a.contains("--force"))`,
 * `"graph.delete_burst" in flags`.
 */
export interface ConditionInput {
  action: string;
  domain: string;
  scope: string;
  verb: string;
  action_type: string;
  tool: string;
  arguments: string[];
  decision: string;
  session_id: string;
  /** Behavioural flags raised by the session-graph rules for this event. */
  flags: string[];
}

const env = celEnv({
  variables: {
    action: CelScalar.STRING,
    domain: CelScalar.STRING,
    scope: CelScalar.STRING,
    verb: CelScalar.STRING,
    action_type: CelScalar.STRING,
    tool: CelScalar.STRING,
    arguments: listType(CelScalar.STRING),
    decision: CelScalar.STRING,
    session_id: CelScalar.STRING,
    flags: listType(CelScalar.STRING),
  },
  funcs: strings,
});

export type Condition = (input: ConditionInput) => boolean;

export class ConditionError extends Error {}

// Save-time probe: a condition must evaluate to a boolean on a typical event. Data-dependent errors
// (an index out of range on this probe) are allowed; unknown names and functions are not.
const PROBE: ConditionInput = {
  action: 'file:/workspace/a.txt:read',
  domain: 'file',
  scope: '/workspace/a.txt',
  verb: 'read',
  action_type: 'FILE_READ',
  tool: 'cat',
  arguments: ['/workspace/a.txt'],
  decision: 'allow',
  session_id: '00000000-0000-4000-8000-000000000000',
  flags: [],
};
const STATIC_ERRORS = /unresolved attribute|unbound function|no such overload|no matching overload|found no matching/i;

/** Parses and plans a condition once; throws ConditionError with a message for the caller. */
export function compileCondition(source: string): Condition {
  if (source.trim() === '') throw new ConditionError('condition must not be empty');
  if (source.length > 4096) throw new ConditionError('condition is longer than 4096 characters');
  let program: (input: ConditionInput) => CelResult;
  try {
    const planned = plan(env, parse(source));
    program = (input) => planned(input as never);
  } catch (error) {
    throw new ConditionError(`not a valid CEL expression: ${(error as Error).message}`);
  }
  const probe = program(PROBE);
  if (isCelError(probe) && STATIC_ERRORS.test(probe.message)) {
    throw new ConditionError(`CEL expression cannot be evaluated: ${probe.message}`);
  }
  if (!isCelError(probe) && typeof probe !== 'boolean') {
    throw new ConditionError('CEL expression must evaluate to a boolean');
  }
  return (input) => {
    const result = program(input);
    if (isCelError(result)) throw new ConditionError(result.message);
    if (typeof result !== 'boolean') throw new ConditionError('condition did not evaluate to a boolean');
    return result;
  };
}
