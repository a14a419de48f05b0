// The one table the bench prints, and the JSON it writes next to it.
const fmt = (n, unit = '') =>
  n === null || n === undefined || Number.isNaN(n) ? 'n/a' : `${Math.round(n).toLocaleString('en-US')}${unit}`;
const ratio = (value, reference) => (value && reference ? `${(value / reference).toFixed(2)}×` : '—');

const E2E_CPU = ['cloud-api', 'projector', 'postgres', 'broker'];
const SCORING_CPU = ['scoring-worker', 'projector', 'postgres', 'broker'];
const cpuSplit = (perEvent, keys) => `${keys.map((key) => fmt(perEvent?.[key])).join(' / ')} µs`;

// The load generator is not part of the system under test; every other process the phase measured is.
const LOAD_GENERATOR = 'bench';
const pipelineCpu = (perEvent) =>
  Object.entries(perEvent ?? {})
    .filter(([key]) => key !== LOAD_GENERATOR)
    .reduce((sum, [, us]) => sum + us, 0);

/**
 * CPU per event of each phase's processes, and of the whole pipeline: every event is both projected
 * (the end-to-end phase, scoring worker not running) and scored (the scoring phase), so the
 * pipeline's cost per event is the two phases' sum. Each also as a multiple of the same run's COPY
 * time per row.
 */
export function efficiency(r) {
  const copyUsPerRow = r.references.copy?.rate ? 1e6 / r.references.copy.rate : null;
  const endToEnd = pipelineCpu(r.endToEnd.cpuUsPerEvent);
  const scoring = pipelineCpu(r.scoring.cpuUsPerEvent);
  const freshness = freshnessCpuPerEvent(r.freshness);
  return withPipeline({
    copyUsPerRow,
    endToEnd: timesCopy(endToEnd, copyUsPerRow),
    scoring: timesCopy(scoring, copyUsPerRow),
    ...(freshness === null ? {} : { freshness: timesCopy(freshness, copyUsPerRow) }),
  });
}

/**
 * The freshness phase projects and scores the same events at once, in the small batches a steady
 * 10,000 events/s makes: the CPU its processes used per accepted event is the whole pipeline's cost
 * at that load (the markers' probes, requests to the API under test, included). Null for results
 * written before the phase kept its window.
 */
function freshnessCpuPerEvent(f) {
  if (!f?.coresBusy || !f.seconds || !f.accepted) return null;
  return (pipelineCpu(f.coresBusy) * f.seconds * 1e6) / f.accepted;
}

const timesCopy = (pipelineUs, copyUsPerRow) => ({
  pipelineUs,
  timesCopy: copyUsPerRow ? pipelineUs / copyUsPerRow : null,
});

/** Adds the projected-and-scored sum (results written before it was part of the JSON lack it). */
const withPipeline = (e) =>
  e.projectedAndScored
    ? e
    : { ...e, projectedAndScored: timesCopy(e.endToEnd.pipelineUs + e.scoring.pipelineUs, e.copyUsPerRow) };

// Cores kept busy over a phase: the system's processes summed, each named, the load generator apart.
const FRESHNESS_CORES = ['cloud-api', 'projector', 'scoring-worker', 'postgres', 'broker'];
const coresRow = (cores) =>
  `${decimal(pipelineCpu(cores))} (${FRESHNESS_CORES.map((key) => decimal(cores[key])).join(' / ')}; ` +
  `load generator ${decimal(cores[LOAD_GENERATOR])})`;

const pipelineRow = (phase) =>
  `${fmt(phase.pipelineUs, ' µs')} = ${phase.timesCopy ? `${phase.timesCopy.toFixed(1)}×` : 'n/a'} COPY per row`;
const statusList = (statuses) =>
  Object.entries(statuses)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');
const decimal = (n, digits = 1) => (n == null || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));

// A marker's path: its event to the projector (queryable) and to the scoring worker (scored, read
// by the events routes' join). Each hop's two stages, from the runners' histograms.
const HOPS = [
  ['events', 'ingest.events.v1', 'projector'],
  ['events', 'ingest.events.v1', 'scoring-worker'],
];
const STAGES = { fetch: 'append → fetched', commit: 'fetched → committed' };
const stageRows = (stages = []) =>
  HOPS.flatMap(([name, topic, app]) =>
    Object.entries(STAGES).flatMap(([stage, label]) =>
      stages
        .filter((w) => w.topic === topic && w.app === app && w.stage === stage)
        .map((w) => [`${name} → ${app} (${w.consumer}): ${label}`, w]),
    ),
  );

const POSTGRES_WRITES = '  Postgres per event: WAL / full-page images / buffers by backends / blocks read';
// What the server wrote over the phase: full-page images follow each checkpoint, and buffers the
// backends wrote out themselves mean shared_buffers was full of dirty pages. Blocks read are the
// pages shared_buffers did not hold.
const writesRow = (w) =>
  `${decimal(w.walBytesPerEvent / 1024)} kB / ${decimal(w.fullPageImagesPerEvent, 2)} / ${decimal(w.buffersWrittenByBackendsPerEvent, 2)} / ` +
  `${decimal(w.blocksReadPerEvent, 2)}; ` +
  `checkpoints ${fmt(w.checkpointsRequested)} requested, ${fmt(w.checkpointsTimed)} timed`;

// Steal: the hypervisor ran other guests on this machine's cores, so the phase had less than its
// cores; its rates and waits are not comparable with a run that had little.
const STOLEN = '  machine time stolen by the hypervisor';
const stolenRow = (share) => `${decimal(share * 100)} %`;

export function renderTable(r) {
  const rows = [];
  const add = (figure, value, target, versus = '—') => rows.push([figure, value, target, versus]);
  const pp = (p) => `${fmt(p.p50)} / ${fmt(p.p95)} / ${fmt(p.p99)} ms (n=${p.count})`;
  const ref = r.references;
  const kafka = ref.producerPerformance?.rate;
  const copy = ref.copy?.rate;
  const e = r.efficiency ? withPipeline(r.efficiency) : efficiency(r);
  if (r.provisioned) {
    add(
      'organizations: provisioned tenants (routed) over cells',
      `${r.provisioned.tenants} over ${r.provisioned.cells}`,
      '—',
    );
  }
  add(
    'ingest accept, batch 500, ingest path alone',
    fmt(r.ingestAlone.rate, ' ev/s'),
    '≥ 100,000',
    `${ratio(r.ingestAlone.rate, kafka)} of Kafka`,
  );
  add(
    '  cloud-api CPU per accepted event',
    fmt(r.ingestAlone.apiCpuUsPerEvent, ' µs'),
    '10 µs = 100,000 ev/s per core',
  );
  add(
    'projector catch-up (that backlog)',
    fmt(r.projectorBacklogRate, ' ev/s'),
    '—',
    `${ratio(r.projectorBacklogRate, copy)} of COPY`,
  );
  add(
    'ingest accept, batch 500, projector running',
    fmt(r.ingest500.rate, ' ev/s'),
    '≥ 100,000',
    `${ratio(r.ingest500.rate, kafka)} of Kafka`,
  );
  add('  cloud-api CPU per accepted event', fmt(r.ingest500.apiCpuUsPerEvent, ' µs'), '10 µs = 100,000 ev/s per core');
  add('ingest accept, batch 50', fmt(r.ingest50.rate, ' ev/s'), '—', `${ratio(r.ingest50.rate, kafka)} of Kafka`);
  add('  cloud-api CPU per accepted event', fmt(r.ingest50.apiCpuUsPerEvent, ' µs'), '—');
  add(
    'sustained end-to-end',
    fmt(r.endToEnd.rate, ' ev/s'),
    '≥ 40,000 and ≥ 0.6× COPY',
    `${ratio(r.endToEnd.rate, copy)} of COPY`,
  );
  add(`  offered during it (${r.endToEnd.seconds}s)`, fmt(r.endToEnd.acceptedRate, ' ev/s accepted'), '—');
  add('  CPU per event: api / projector / Postgres / broker', cpuSplit(r.endToEnd.cpuUsPerEvent, E2E_CPU), '—');
  add('  CPU per event, these processes', pipelineRow(e.endToEnd), '—', `COPY ${decimal(e.copyUsPerRow)} µs per row`);
  if (r.endToEnd.postgresWrites) add(POSTGRES_WRITES, writesRow(r.endToEnd.postgresWrites), '—');
  if (r.endToEnd.stolen != null) add(STOLEN, stolenRow(r.endToEnd.stolen), '—');
  add(
    '  load generator CPU per event (not counted)',
    `${fmt(r.endToEnd.cpuUsPerEvent?.[LOAD_GENERATOR], ' µs')} (+ ${fmt(r.endToEnd.prepareCpuUsPerEvent, ' µs')} built before)`,
    '—',
  );
  add(
    `freshness load offered / achieved`,
    `${fmt(r.freshness.offered, '')} / ${fmt(r.freshness.achieved, ' ev/s')}`,
    '10,000 ev/s',
  );
  if (r.freshness.coresBusy) {
    add(
      '  cores busy: sum (api / projector / worker / Postgres / broker)',
      coresRow(r.freshness.coresBusy),
      '—',
      `of ${r.machine.cpus} cores`,
    );
  }
  if (e.freshness) {
    add(
      '  CPU per accepted event, these processes (probes included)',
      pipelineRow(e.freshness),
      '—',
      `COPY ${decimal(e.copyUsPerRow)} µs per row`,
    );
  }
  if (r.freshness.postgresWrites) add(POSTGRES_WRITES, writesRow(r.freshness.postgresWrites), '—');
  if (r.freshness.stolen != null) add(STOLEN, stolenRow(r.freshness.stolen), '—');
  add('ack → queryable p50/p95/p99', pp(r.freshness.queryable), 'p50 ≤ 200, p99 ≤ 1000 ms');
  if (r.freshness.probes != null) {
    add(
      `  marker probes (every ${r.freshness.pollMs} ms, then ${r.freshness.relativePrecision * 100} % of the wait)`,
      fmt(r.freshness.probes / (r.freshness.probingMs / 1000), ' requests/s'),
      '—',
    );
  }
  if (r.freshness.timedOut) add('  markers never seen (30 s)', String(r.freshness.timedOut), '0');
  add('ack → scored p50/p95/p99', pp(r.freshness.scored), 'p99 ≤ 2000 ms');
  for (const [label, wait] of stageRows(r.freshness.stages))
    add(`  ${label} p50/p99`, `${fmt(wait.p50Ms)} / ${fmt(wait.p99Ms)} ms (n=${wait.count} appends)`, '—');
  for (const [name, p] of Object.entries(r.queries)) {
    add(`${name} p50/p95`, `${fmt(p.p50)} / ${fmt(p.p95)} ms`, name.includes('stats') ? 'p95 ≤ 250 ms' : 'p95 ≤ 50 ms');
    if (p.refused) add(`  answered other than 200`, `${p.refused.count} (${statusList(p.refused.statuses)})`, '0');
  }
  add(
    'replay (all projections)',
    `${fmt(r.replay?.eventsPerSecond, ' ev/s')} (${fmt(r.replay?.rate, ' rec/s')}${r.replay?.processes ? `, ${r.replay.processes} process${r.replay.processes === 1 ? '' : 'es'}` : ''})`,
    '≥ 60,000 ev/s',
    `${ratio(r.replay?.eventsPerSecond, copy)} of COPY`,
  );
  add('scoring worker', fmt(r.scoring.rate, ' ev/s'), '≥ 20,000', `${ratio(r.scoring.rate, copy)} of COPY`);
  add('  CPU per event: worker / projector / Postgres / broker', cpuSplit(r.scoring.cpuUsPerEvent, SCORING_CPU), '—');
  add('  CPU per event, these processes', pipelineRow(e.scoring), '—', `COPY ${decimal(e.copyUsPerRow)} µs per row`);
  if (r.scoring.postgresWrites) add(POSTGRES_WRITES, writesRow(r.scoring.postgresWrites), '—');
  if (r.scoring.stolen != null) add(STOLEN, stolenRow(r.scoring.stolen), '—');
  add(
    'CPU per event, whole pipeline (projected + scored)',
    pipelineRow(e.projectedAndScored),
    '≤ 8× COPY',
    `COPY ${decimal(e.copyUsPerRow)} µs per row`,
  );
  // The load generator holds a phase's request bodies, built before it (full mode: 10M events'), so
  // it is reported apart from the system's processes, as its CPU is.
  for (const [app, mb] of Object.entries(r.peakRssMb)) {
    if (app === LOAD_GENERATOR) add('peak RSS load generator (not counted)', fmt(mb, ' MB'), '—');
    else add(`peak RSS ${app}`, fmt(mb, ' MB'), '≤ 512 MB');
  }
  add(
    'ref: Kafka ProducerPerformance',
    fmt(kafka, ' rec/s'),
    `${fmt(ref.producerPerformance?.records)} × ${r.recordSize} B, acks=all`,
  );
  add('ref: COPY into LIKE events', fmt(copy, ' rows/s'), `${fmt(ref.copy?.rows)} rows`);
  if (r.postgres) {
    const settings = Object.entries(r.postgres.settings).map(([name, value]) => `${name} ${value}`);
    add('Postgres settings (shared server)', settings.join(', '), '—');
  }
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...rows.map((row) => row[i].length), ['figure', 'measured', 'target', 'vs reference'][i].length),
  );
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [
    line(['figure', 'measured', 'target', 'vs reference']),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ].join('\n');
}
