/// <reference types="jest" />
import { summaryOf } from './journal-text';

describe('summaryOf', () => {
  it('words the flow events from their payload', () => {
    expect(summaryOf({ type: 'FlowApproved', data: { approver: 'bob' } })).toBe('approved by bob');
    expect(
      summaryOf({
        type: 'StepFailed',
        data: { step: 'place', reason: 'no_placeable_cell', attempt: 2, next_retry_at: '2025-01-01T00:00:04Z' },
      }),
    ).toBe('step place failed (attempt 2): no_placeable_cell; retry at 2025-01-01T00:00:04Z');
    expect(summaryOf({ type: 'IdentityErased', data: { erased: { api_keys: 2, memberships: 1 } } })).toBe(
      'identity erased (api_keys 2, memberships 1)',
    );
  });

  it('lists the fields of an event it does not know', () => {
    expect(summaryOf({ type: 'Unheard', data: { a: 1, b: { c: 2 } } })).toBe('a: 1, b: {"c":2}');
  });
});
