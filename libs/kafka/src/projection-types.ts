import { EntityManager } from 'typeorm';
import { MemberRouting } from './record-routing';

export interface ProjectedRecord<T> {
  id: string;
  type: string;
  /** CloudEvents time: when the record was appended. */
  time: string;
  orgId: string;
  payload: T;
  partition: number;
  offset: string;
  /**
   * Set on a redriven dead letter that one projection refused (its `redrive_projection` header): only
   * that projection applies it, since the others sharing the consumer applied it the first time.
   */
  onlyFor?: string;
}

export interface ProjectionBatch<T = unknown> {
  /** The transaction that also advances the checkpoint: write the batch's rows through it. */
  tx: EntityManager;
  /** The base topic name (without deployment prefix). */
  topic: string;
  records: ProjectedRecord<T>[];
}

/** One read model fed by a runner: its own checkpoints, applied in the runner's transactions. */
export interface RunnerMember<T> {
  /** The projection's name, for metrics and logs. */
  name: string;
  /** Its checkpoint key, already prefixed. */
  group: string;
  /** The base topic names it reads (a subset of the runner's). */
  topics: string[];
  apply: (batch: ProjectionBatch<T>) => Promise<void>;
  /**
   * Whose rows it writes (see MemberRouting); default `routed`. Only a runner given a RecordRouter
   * routes at all: without one, every row goes to the runner's database.
   */
  routing?: MemberRouting;
}
