import { KafkaMessage } from 'kafkajs';
import { metrics } from './metrics';

/**
 * The wall clock when a runner takes up a fetched batch, comparable with the records' Kafka
 * timestamps. Taking up, not the fetch response: batches kafkajs fetched while earlier ones were
 * still being applied wait in its queue, and that wait belongs to the fetch side.
 */
export const takenUpNow = (): number => Date.now();

/**
 * Where a committed batch's records spent their time: broker timestamp → taken up (fetch wait) and
 * taken up → transaction committed (commit wait).
 *
 * The topics keep the broker's default timestamp type, CreateTime: the producer stamps each
 * produce request (all of its records alike) just before sending it, so the fetch wait includes that
 * request's round trip. Under LogAppendTime kafkajs reports the append time in the same field.
 *
 * One observation per run of records sharing a timestamp (one produce request's records in this
 * partition), not per record: a fetched batch holds a few such runs but up to thousands of records,
 * and prom-client's observe costs about a third of a microsecond. It also weighs the waits roughly
 * as the bench's freshness markers do, which sample ingest requests, not records.
 */
export function observeStageWaits(
  consumer: string,
  topic: string,
  committed: readonly KafkaMessage[],
  takenUpAt: number,
): void {
  const fetchWait = metrics.fetchWaitSeconds.labels(consumer, topic);
  let runs = 0;
  let previous: string | undefined;
  for (const { timestamp } of committed) {
    if (timestamp === previous) continue;
    previous = timestamp;
    runs++;
    // Producer and broker clocks may differ by a little: a negative wait is a zero one.
    fetchWait.observe(Math.max(0, takenUpAt - Number(timestamp)) / 1000);
  }
  const commitWait = metrics.commitWaitSeconds.labels(consumer, topic);
  const seconds = Math.max(0, Date.now() - takenUpAt) / 1000;
  for (let i = 0; i < runs; i++) commitWait.observe(seconds);
}
