/// <reference types="jest" />
import { hourlySeries } from './stats';

describe('hourlySeries', () => {
  it('fills every hour of the window, keeping the counts the API gave', () => {
    const series = hourlySeries('2024-05-01T00:00:00.000Z', '2024-05-02T00:00:00.000Z', [
      { hour: '2024-05-01T03:00:00Z', count: 7 },
      { hour: '2024-05-01T23:00:00Z', count: 2 },
    ]);
    expect(series).toHaveLength(24);
    expect(series[0]).toEqual({ hour: '2024-05-01T00:00:00.000Z', count: 0 });
    expect(series[3]).toEqual({ hour: '2024-05-01T03:00:00.000Z', count: 7 });
    expect(series[23]).toEqual({ hour: '2024-05-01T23:00:00.000Z', count: 2 });
  });
});
