// What a fetched batch means for the projections sharing a runner, decided from offsets alone: pure,
// so the runner's Kafka and Postgres calls stay apart from the arithmetic they follow.

/** A member's stored checkpoint: the first offset it has not applied, or null before its first batch. */
export interface MemberCheckpoint<M> {
  member: M;
  expected: string | null;
}

/** Where a member reads this batch from: its checkpoint, or the low watermark without one. */
export interface Position<M> extends MemberCheckpoint<M> {
  start: string;
}

export type BatchPlan<M, R> =
  /** Kafka's offsets ran ahead of the checkpoints (a reset database): read again from `offset`. */
  | { action: 'seek'; offset: string }
  /** Every record is below every checkpoint: already applied, nothing to project. */
  | { action: 'skip'; positions: Position<M>[] }
  | {
      action: 'project';
      positions: Position<M>[];
      /** The records at or past the lowest checkpoint, in offset order. */
      fresh: R[];
      /** The checkpoint after the batch: one past its last fresh record. */
      next: string;
      /** Members with records to apply; the others' checkpoints are already past the batch. */
      applying: M[];
      sittingOut: M[];
    };

export const nextOf = (offset: string) => (BigInt(offset) + 1n).toString();

/** The lowest of some offsets (nulls ignored), '0' when there is none. */
export const lowest = (offsets: (string | null)[]): string =>
  offsets.reduce(
    (low, o) => (o !== null && (low === null || BigInt(o) < BigInt(low)) ? o : low),
    null as string | null,
  ) ?? '0';

/**
 * Where the consumer resumes a partition from the members' checkpoints, or null when one has none:
 * it starts at the low watermark, where the consumer starts anyway.
 */
export const resumeAt = (checkpoints: (string | null)[]): string | null =>
  checkpoints.every((c) => c !== null) ? lowest(checkpoints) : null;

/**
 * Whether the plan needs the partition's low watermark, asked of the broker once per batch at most:
 * a member without a checkpoint starts there, and a batch that begins past the checkpoints is only
 * re-read if retention has kept the records between.
 */
export const needsLowWatermark = (checkpoints: (string | null)[], firstOffset: string): boolean =>
  checkpoints.some((c) => c === null) || BigInt(firstOffset) > BigInt(lowest(checkpoints));

/**
 * Plans one fetched, non-empty batch. `low` is the low watermark, required when needsLowWatermark
 * says so (a batch past the checkpoints is projected anyway when retention deleted what lies between).
 */
export function planBatch<M, R extends { offset: string }>(
  checkpoints: MemberCheckpoint<M>[],
  low: string | null,
  records: R[],
): BatchPlan<M, R> {
  if (records.length === 0) throw new Error('planBatch: an empty batch has nothing to plan');
  const positions = checkpoints.map((c) => ({ ...c, start: c.expected ?? required(low) }));
  const start = lowest(positions.map((p) => p.start));
  const first = BigInt(records[0].offset);
  if (first > BigInt(start) && BigInt(required(low)) <= BigInt(start)) return { action: 'seek', offset: start };

  const from = BigInt(start);
  const fresh = first >= from ? records : records.filter((r) => BigInt(r.offset) >= from);
  if (fresh.length === 0) return { action: 'skip', positions };
  const next = nextOf(fresh[fresh.length - 1].offset);
  const applies = (p: Position<M>) => BigInt(p.start) < BigInt(next);
  return {
    action: 'project',
    positions,
    fresh,
    next,
    applying: positions.filter(applies).map((p) => p.member),
    sittingOut: positions.filter((p) => !applies(p)).map((p) => p.member),
  };
}

function required(low: string | null): string {
  if (low === null) throw new Error('planBatch: this batch needs the low watermark (see needsLowWatermark)');
  return low;
}
