export interface PartitionOffset {
  topic: string;
  partition: number;
  /** The next offset to read, as Kafka commits it. */
  offset: string;
}

/** How long a batch's offset waits for the next commit request, at most. */
export const OFFSET_COMMIT_INTERVAL_MS = 1000;

/**
 * A projection's Kafka offsets only follow its checkpoints in Postgres, for lag tooling such as
 * `kafka-consumer-groups --describe`: nothing reads them back. Committing them after every batch put a
 * broker round trip on each batch's path, and the consumer fetches again only once every batch of a
 * fetch is applied (see docs/adr/0008-offset-commits-off-the-batch-path.md). Here each batch only
 * notes its offset, and the latest offset of every partition leaves in one request per interval, off
 * the batches' path. An idle consumer's
 * offsets follow within one interval; `flush` sends what is noted at once (on stop).
 */
export class OffsetCommitter {
  private readonly noted = new Map<string, PartitionOffset>();
  private timer?: NodeJS.Timeout;
  /** Requests go one after another, so a later offset is never overtaken by an earlier one. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly commit: (offsets: PartitionOffset[]) => Promise<void>,
    private readonly onError: (error: Error) => void,
    private readonly intervalMs = OFFSET_COMMIT_INTERVAL_MS,
  ) {}

  note(offset: PartitionOffset): void {
    this.noted.set(`${offset.topic}:${offset.partition}`, offset);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /**
   * After a rebalance: forget the partitions this member no longer owns. Their new owner commits its
   * own progress, which an older offset from here would otherwise set back.
   */
  retain(assignment: Record<string, number[]>): void {
    for (const [key, { topic, partition }] of this.noted) {
      if (!assignment[topic]?.includes(partition)) this.noted.delete(key);
    }
  }

  /** Sends what is noted now; resolves once every request so far is answered (failures go to onError). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const offsets = [...this.noted.values()];
    this.noted.clear();
    if (offsets.length > 0) {
      this.sending = this.sending.then(() => this.commit(offsets)).catch((error: Error) => this.onError(error));
    }
    return this.sending;
  }
}
