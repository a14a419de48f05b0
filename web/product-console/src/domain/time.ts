const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2024-05-01 12:00:05` in the browser's time zone; an empty string for null. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** An ISO time as a `datetime-local` input's value (local time, to the second). */
export function toLocalInput(iso: string | undefined): string {
  return iso ? formatTime(iso).replace(' ', 'T') : '';
}

/** A `datetime-local` input's value as an ISO time; null when blank or not a time. */
export function fromLocalInput(value: string): string | null {
  if (!value.trim()) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The window of the last `hours` hours up to `now`. */
export function lastHours(hours: number, now: Date): { since: string; end_time: string } {
  return { since: new Date(now.getTime() - hours * 3_600_000).toISOString(), end_time: now.toISOString() };
}
