/// <reference types="jest" />
import { formatTime, fromLocalInput, lastHours, toLocalInput } from './time';

describe('time helpers', () => {
  it('round-trips an ISO time through a datetime-local value', () => {
    const iso = '2024-05-01T10:20:30.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
  });

  it('formats a local time to the second', () => {
    expect(formatTime('2024-05-01T10:20:30.123Z')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(formatTime(null)).toBe('');
  });

  it('reads a blank or malformed input as no time', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a time')).toBeNull();
  });

  it('makes a window of the last hours', () => {
    expect(lastHours(24, new Date('2024-05-02T00:00:00.000Z'))).toEqual({
      since: '2024-05-01T00:00:00.000Z',
      end_time: '2024-05-02T00:00:00.000Z',
    });
  });
});
