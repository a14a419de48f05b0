const HOUR_MS = 3_600_000;
const HOURS = 24;

/**
 * The stats cover whole UTC hours, because they are read from hourly counters: the hour `now` is in
 * and the 23 before it. `until` is exclusive, so an event stamped later in the current hour counts.
 */
export function statsWindow(now: Date): { since: Date; until: Date } {
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { since: new Date(currentHour - (HOURS - 1) * HOUR_MS), until: new Date(currentHour + HOUR_MS) };
}
