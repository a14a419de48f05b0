import { Counter, collectDefaultMetrics, Gauge, Histogram } from 'prom-client';

// Created once per process (prom-client's registry is global), shared by every app in it.
collectDefaultMetrics();

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Finer between 1 and 30 s: a freshness p99 of several seconds is read off these by interpolation.
const waitSeconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 10, 15, 20, 30, 60];

export const metrics = {
  produceSeconds: new Histogram({
    name: 'agentwatch_kafka_produce_seconds',
    help: 'Time from produce call to broker acknowledgment',
    buckets: seconds,
  }),
  producedRecords: new Counter({
    name: 'agentwatch_kafka_produced_records_total',
    help: 'Records acknowledged by the broker',
    labelNames: ['topic'],
  }),
  produceFailures: new Counter({
    name: 'agentwatch_kafka_produce_failures_total',
    help: 'Produce calls that were not acknowledged',
  }),
  projectedRecords: new Counter({
    name: 'agentwatch_projection_records_total',
    help: 'Records applied by a projection',
    labelNames: ['projection', 'topic'],
  }),
  projectionBatchSeconds: new Histogram({
    name: 'agentwatch_projection_batch_seconds',
    help: 'Time to apply one batch and commit its checkpoint',
    labelNames: ['projection'],
    buckets: seconds,
  }),
  projectionLatencySeconds: new Histogram({
    name: 'agentwatch_projection_latency_seconds',
    help: 'Time from records being appended (their CloudEvents time) to their projection committing, per run of records sharing that time',
    labelNames: ['projection'],
    buckets: seconds,
  }),
  // Both count appended record batches (records sharing a Kafka timestamp), not records: see
  // projection-timing.ts.
  fetchWaitSeconds: new Histogram({
    name: 'agentwatch_projection_fetch_wait_seconds',
    help: "Time from a record batch's broker timestamp to its consumer taking it up, per appended batch",
    labelNames: ['consumer', 'topic'],
    buckets: waitSeconds,
  }),
  commitWaitSeconds: new Histogram({
    name: 'agentwatch_projection_commit_wait_seconds',
    help: 'Time from a consumer taking up a fetched batch to its transaction committing, per appended batch in it',
    labelNames: ['consumer', 'topic'],
    buckets: waitSeconds,
  }),
  consumerLag: new Gauge({
    name: 'agentwatch_consumer_lag_records',
    help: 'Records behind the high watermark after the last batch',
    labelNames: ['projection', 'topic', 'partition'],
  }),
  deadLetters: new Counter({
    name: 'agentwatch_dead_letters_total',
    help: 'Records sent to a dead-letter topic; reason: decode (schema) or refused (by the database for its content)',
    labelNames: ['projection', 'topic', 'reason'],
  }),
  erasedRecordsSkipped: new Counter({
    name: 'agentwatch_erased_records_skipped_total',
    help: 'Records skipped because their organization was deprovisioned (its route, or its data key is gone)',
    labelNames: ['topic'],
  }),
  tenantBatchesCommittedTogether: new Counter({
    name: 'agentwatch_tenant_batches_committed_together_total',
    help: "Partition batches' parts committed in a tenant database's transaction shared with other partitions' batches",
    labelNames: ['consumer'],
  }),
  sharedBatchesCommittedTogether: new Counter({
    name: 'agentwatch_shared_batches_committed_together_total',
    help: "Partition batches committed in the shared database's transaction shared with other partitions' batches",
    labelNames: ['consumer'],
  }),
  heldBatches: new Counter({
    name: 'agentwatch_projection_held_batches_total',
    help: "Batches cut at a record whose organization's database cannot be written yet (the partition waits, then reads it again)",
    labelNames: ['projection', 'topic'],
  }),
};
