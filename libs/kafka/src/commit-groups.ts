import { commitIsolating, RunCommitter } from './poison-isolation';

/** One partition's batch (or its part for one database) waiting to commit. */
export interface GroupedBatch<C, R> {
  commits: C;
  records: R[];
  next: string;
}

interface Waiting<C, R> extends GroupedBatch<C, R> {
  done: (refused: unknown) => void;
  failed: (error: unknown) => void;
}

/**
 * The partitions in flight commit their batches for one database together. A batch of a few dozen
 * events paid a transaction of its own per partition (and, routed, per tenant database), each with
 * its statements, checkpoint rows and commit; partitions that reach the same database while its
 * transaction runs now wait for it and then share the next one. Nothing waits on a timer: a
 * database nobody else is writing commits at once, exactly as a batch alone would.
 *
 * A shared transaction that fails changes nothing, and each batch is then committed on its own
 * (commitIsolating), so a refused record or a lost partition is found and handled exactly as
 * before, by the batch it belongs to.
 */
export class CommitGroups<C extends RunCommitter<R>, R extends { offset: string }> {
  /** Per database and topic: the batches waiting for the transaction running there. */
  private readonly waiting = new Map<string, Waiting<C, R>[]>();

  /**
   * `together` commits several batches in one transaction and throws what the database threw;
   * `committedTogether` is told how many batches each such transaction carried.
   */
  constructor(
    private readonly together: (batches: GroupedBatch<C, R>[]) => Promise<void>,
    private readonly committedTogether: (batches: number) => void,
  ) {}

  /** Resolves to the first content error met (see commitIsolating), or null when the batch committed whole. */
  commit(key: string, commits: C, records: R[], next: string): Promise<unknown> {
    return new Promise((done, failed) => {
      const batch = { commits, records, next, done, failed };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(batch);
        return;
      }
      this.waiting.set(key, []);
      void this.drain(key, [batch]);
    });
  }

  private async drain(key: string, first: Waiting<C, R>[]): Promise<void> {
    for (let group = first; group.length > 0; group = this.waiting.get(key)?.splice(0) ?? []) {
      await this.run(group);
    }
    this.waiting.delete(key);
  }

  private async run(group: Waiting<C, R>[]): Promise<void> {
    if (group.length > 1) {
      try {
        await this.together(group);
        this.committedTogether(group.length);
        for (const batch of group) batch.done(null);
        return;
      } catch {
        // Each batch's own transaction below meets the same failure, and handles it as its own.
      }
    }
    for (const batch of group) {
      try {
        batch.done(await commitIsolating(batch.commits, { records: batch.records, next: batch.next }));
      } catch (error) {
        batch.failed(error);
      }
    }
  }
}
