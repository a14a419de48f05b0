/// <reference types="jest" />
import { EVENT_FILTERS, filterErrors, filtersFrom, withParams } from './filters';

describe('filtersFrom', () => {
  it('keeps known, non-blank keys, trimmed', () => {
    const params = new URLSearchParams('agent_id=%20claude%20&tool_name=&cursor=abc&other=1&decision=block');
    expect(filtersFrom(params, EVENT_FILTERS)).toEqual({ agent_id: 'claude', decision: 'block' });
  });
});

describe('withParams', () => {
  it('sets, replaces and removes keys without touching the others', () => {
    const next = withParams(new URLSearchParams('a=1&b=2&cursor=x'), { a: '3', b: '', cursor: null, c: 'new' });
    expect(next.toString()).toBe('a=3&c=new');
  });
});

describe('filterErrors', () => {
  it('accepts a complete valid filter', () => {
    expect(
      filterErrors({
        session_id: '0190a0c2-0000-7000-8000-000000000001',
        min_risk: '10',
        max_risk: '90',
        since: '2024-05-01T00:00:00.000Z',
        end_time: '2024-05-02T00:00:00.000Z',
      }),
    ).toEqual({});
  });

  it('refuses a risk outside 0-100 or not an integer, and a minimum above the maximum', () => {
    expect(filterErrors({ min_risk: '-1', max_risk: '1.5' })).toEqual({
      min_risk: 'an integer from 0 to 100',
      max_risk: 'an integer from 0 to 100',
    });
    expect(filterErrors({ min_risk: '60', max_risk: '50' })).toEqual({ max_risk: 'at least the minimum risk' });
  });

  it('refuses a malformed session id and a window that ends before it starts', () => {
    expect(filterErrors({ session_id: 'nope' })).toEqual({ session_id: 'a session id (UUID)' });
    expect(filterErrors({ since: '2024-05-02T00:00:00Z', end_time: '2024-05-01T00:00:00Z' })).toEqual({
      end_time: 'after the start of the window',
    });
    expect(filterErrors({ since: 'yesterday' })).toEqual({ since: 'a date and time' });
  });
});
