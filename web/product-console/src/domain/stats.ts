const HOUR_MS = 3_600_000;

/** Every hour of the window, zero where the API reported none (it lists only hours that had events). */
export function hourlySeries(
  since: string,
  until: string,
  hourly: readonly { hour: string; count: number }[],
): { hour: string; count: number }[] {
  const counts = new Map(hourly.map((h) => [Date.parse(h.hour), h.count]));
  const series: { hour: string; count: number }[] = [];
  for (let at = Date.parse(since); at < Date.parse(until); at += HOUR_MS) {
    series.push({ hour: new Date(at).toISOString(), count: counts.get(at) ?? 0 });
  }
  return series;
}
