import { statsWindow } from './stats-window';

describe('the stats window', () => {
  it('is the current UTC hour and the 23 before it', () => {
    expect(statsWindow(new Date('2026-11-23T05:47:12.345Z'))).toEqual({
      since: new Date('2026-11-22T06:00:00.000Z'),
      until: new Date('2026-11-23T06:00:00.000Z'),
    });
  });

  it('starts a new hour exactly on the hour', () => {
    expect(statsWindow(new Date('2026-11-23T06:00:00.000Z'))).toEqual({
      since: new Date('2026-11-22T07:00:00.000Z'),
      until: new Date('2026-11-23T07:00:00.000Z'),
    });
    expect(statsWindow(new Date('2026-11-23T05:59:59.999Z')).until).toEqual(new Date('2026-11-23T06:00:00.000Z'));
  });
});
