import { classifyFailure } from './refusal';

/** Records to commit in one transaction, and the checkpoint that commit moves to (the offset after them). */
export interface Run<R> {
  records: R[];
  next: string;
}

/** What isolation drives: PartitionCommits, or a fake of it in a unit test. */
export interface RunCommitter<R> {
  /** One transaction for the whole run; throws what the database threw. */
  commit(records: R[], next: string): Promise<void>;
  /** One record, each projection in a savepoint: those that refuse it dead-letter it; never throws for content. */
  commitAlone(record: R, next: string): Promise<void>;
}

/**
 * Splits a run of two or more records into two contiguous runs: the first ends where the second
 * begins, so committing both in order moves the checkpoint over exactly the offsets the run covered
 * (records skipped as undecodable in between included).
 */
export function halves<R extends { offset: string }>(run: Run<R>): [Run<R>, Run<R>] {
  if (run.records.length < 2) throw new Error('only a run of two or more records can be split');
  const middle = Math.ceil(run.records.length / 2);
  return [
    { records: run.records.slice(0, middle), next: run.records[middle].offset },
    { records: run.records.slice(middle), next: run.next },
  ];
}

/**
 * Commits a run; if the database refuses it for its content, bisects it, committing each part in a
 * transaction of its own, until each refused record is alone and is dead-lettered by the projections
 * that refuse it. Records that are only refused together (one upsert naming a row twice) end up in
 * different parts and all land. A transient error is thrown as it is: the caller retries the batch,
 * and the parts already committed are behind their checkpoints by then. Resolves to the first content
 * error met, or null when the run committed whole.
 */
export async function commitIsolating<R extends { offset: string }>(
  committer: RunCommitter<R>,
  run: Run<R>,
): Promise<unknown> {
  try {
    await committer.commit(run.records, run.next);
    return null;
  } catch (error) {
    if (classifyFailure(error) !== 'content' || run.records.length === 0) throw error;
    await isolate(committer, run);
    return error;
  }
}

/** `run` was refused as a whole. Depth is log2 of the batch; a batch of 4,000 with one poison record costs ~24 transactions. */
async function isolate<R extends { offset: string }>(committer: RunCommitter<R>, run: Run<R>): Promise<void> {
  if (run.records.length === 1) return committer.commitAlone(run.records[0], run.next);
  for (const part of halves(run)) {
    if (part.records.length === 1) {
      await committer.commitAlone(part.records[0], part.next);
      continue;
    }
    try {
      await committer.commit(part.records, part.next);
    } catch (error) {
      if (classifyFailure(error) !== 'content') throw error;
      await isolate(committer, part);
    }
  }
}
