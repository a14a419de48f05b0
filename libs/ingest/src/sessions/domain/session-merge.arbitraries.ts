import { SESSION_STATES } from '@agentwatch/contracts';
import fc from 'fast-check';
import { LifecycleRecord } from './session-merge';

// Test-only (tsconfig.build.json leaves *.arbitraries.ts out of dist): fast-check is a dev dependency.

/** Random lifecycle records for the merge properties, over the times and parent ids a test picks. */
export function lifecycleRecord(
  at: fc.Arbitrary<number>,
  parentIds: string[],
): fc.Arbitrary<{ kind: 'lifecycle' } & LifecycleRecord> {
  // Few values, so that ties are common; two whose UTF-16 order is not their code point order.
  const text = fc.option(fc.constantFrom('a', 'b', '～', '😀'), { nil: null });
  return fc.record({
    kind: fc.constant('lifecycle' as const),
    state: fc.constantFrom(...SESSION_STATES),
    at,
    session_name: text,
    model: text,
    signing_id: text,
    platform: text,
    parent_id: fc.option(fc.constantFrom(...parentIds), { nil: null }),
  });
}
