import { z } from 'zod';

/** ISO 8601 date-time with an explicit offset (`Z` or `±hh:mm`), as daemons send it. */
export const isoDateTime = z.iso.datetime({ offset: true });

export const uuid = z.uuid();

/** Optional fields of daemon payloads may be absent or explicitly null: both mean "not reported". */
export const optionalString = (max: number) => z.string().max(max).nullish();
