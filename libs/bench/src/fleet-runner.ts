import { gzipSync } from 'node:zlib';
import { Agent, Dispatcher, request } from 'undici';
import type { DaemonIdentity, FleetBatch } from './domain/fleet';

/** A batch whose request body is already built, so sending it costs the generator no JSON work. */
export interface PreparedBatch {
  daemon: number;
  /** Items in the body. */
  size: number;
  body: Buffer;
  gzip: boolean;
}

export interface SendOptions<B = FleetBatch> {
  apiUrl: string;
  /** Service token of each daemon, by daemon index. */
  tokens: readonly string[];
  concurrency: number;
  gzip?: boolean;
  /** Offered load in items/s; unset = as fast as the API accepts. */
  rate?: number;
  /** Stop offering after this many ms even if batches are left. */
  durationMs?: number;
  /** Called with each accepted batch and the moment its 200 arrived (after the Kafka ack). */
  onAccepted?: (batch: B, ackedAt: number) => void;
  /** Called with each batch the API did not accept (any status but 200, or no answer). */
  onRefused?: (batch: B, status: number | string) => void;
}

export interface SendResult {
  requests: number;
  accepted: number;
  failed: number;
  statuses: Record<string, number>;
  bytes: number;
  elapsedMs: number;
}

function bodyOf(items: FleetBatch['items'], gzip: boolean): Buffer {
  const json = Buffer.from(JSON.stringify({ events: items }));
  return gzip ? gzipSync(json) : json;
}

const sizeOf = (batch: FleetBatch | PreparedBatch) => ('body' in batch ? batch.size : batch.items.length);

/**
 * Builds every batch's body up front, so that a timed phase spends the shared cores on the system
 * under test rather than on generating and serializing the fleet's items. Only the bodies are kept.
 */
export function prepareBatches(batches: Iterable<FleetBatch>, gzip = false): PreparedBatch[] {
  const prepared: PreparedBatch[] = [];
  for (const { daemon, items } of batches)
    prepared.push({ daemon, size: items.length, body: bodyOf(items, gzip), gzip });
  return prepared;
}

/**
 * One POST /v1/ingest; its status, or the network error as text. undici's `request` rather than
 * `fetch`: the WHATWG streams and objects of `fetch` took about a quarter of the load generator's
 * CPU during the freshness phase, on the cores the system under test needs.
 */
async function postIngest(
  dispatcher: Dispatcher,
  apiUrl: string,
  token: string,
  body: Buffer,
  gzip: boolean,
): Promise<number | string> {
  try {
    const response = await request(`${apiUrl}/v1/ingest`, {
      dispatcher,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      },
      body,
    });
    await response.body.dump();
    return response.statusCode;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers every daemon's machine with its organization's deploy token; returns the service tokens. */
export async function registerDaemons(
  apiUrl: string,
  daemons: readonly DaemonIdentity[],
  deployTokens: readonly string[],
  concurrency = 8,
): Promise<string[]> {
  const tokens: string[] = new Array(daemons.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < daemons.length; i = next++) {
      const { index, organization, ...body } = daemons[i];
      const response = await fetch(`${apiUrl}/v1/machines/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${deployTokens[organization]}` },
        body: JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`registering ${body.machine_id}: HTTP ${response.status} ${await response.text()}`);
      tokens[index] = ((await response.json()) as { service_token: string }).service_token;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return tokens;
}

/**
 * Sends batches to POST /v1/ingest (the daemon's mixed route) with at most `concurrency` requests in
 * flight, paced to `rate` when set. A request counts as accepted only on HTTP 200, which the API
 * answers after the broker acknowledged every record.
 *
 * Each call opens connections of its own and closes them at its end. Kept across calls, a connection
 * left idle while this process was busy (building the next phase's bodies) could be closed by the
 * server's keep-alive timeout before this process saw it, and the first request sent on it then got
 * no answer ("other side closed").
 */
export async function sendBatches<B extends FleetBatch | PreparedBatch>(
  batches: Iterable<B>,
  options: SendOptions<B>,
): Promise<SendResult> {
  const iterator = batches[Symbol.iterator]();
  const result: SendResult = { requests: 0, accepted: 0, failed: 0, statuses: {}, bytes: 0, elapsedMs: 0 };
  const dispatcher = new Agent();
  const start = performance.now();
  let offered = 0;
  const worker = async () => {
    for (;;) {
      if (options.durationMs !== undefined && performance.now() - start >= options.durationMs) return;
      const step = iterator.next();
      if (step.done) return;
      const batch = step.value;
      if (options.rate) {
        // Pacing by schedule, not by sleeping a fixed gap, so slow responses do not lower the offered load.
        const due = start + (offered / options.rate) * 1000;
        offered += sizeOf(batch);
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
      }
      const gzip = 'body' in batch ? batch.gzip : (options.gzip ?? false);
      const body = 'body' in batch ? batch.body : bodyOf(batch.items, gzip);
      result.bytes += body.length;
      result.requests++;
      const status = await postIngest(dispatcher, options.apiUrl, options.tokens[batch.daemon], body, gzip);
      result.statuses[String(status)] = (result.statuses[String(status)] ?? 0) + 1;
      if (status === 200) {
        result.accepted += sizeOf(batch);
        options.onAccepted?.(batch, performance.now());
      } else {
        result.failed += sizeOf(batch);
        options.onRefused?.(batch, status);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    result.elapsedMs = performance.now() - start;
    return result;
  } finally {
    await dispatcher.close();
  }
}
