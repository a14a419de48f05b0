import { gzipSync } from 'node:zlib';
import type { DaemonIdentity, FleetBatch } from './domain/fleet';

export interface SendOptions {
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
  onAccepted?: (batch: FleetBatch, ackedAt: number) => void;
}

export interface SendResult {
  requests: number;
  accepted: number;
  failed: number;
  statuses: Record<string, number>;
  bytes: number;
  elapsedMs: number;
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
 */
export async function sendBatches(batches: Iterable<FleetBatch>, options: SendOptions): Promise<SendResult> {
  const iterator = batches[Symbol.iterator]();
  const result: SendResult = { requests: 0, accepted: 0, failed: 0, statuses: {}, bytes: 0, elapsedMs: 0 };
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
        offered += batch.items.length;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
      }
      const json = JSON.stringify({ events: batch.items });
      const body = options.gzip ? gzipSync(json) : json;
      result.bytes += body.length;
      result.requests++;
      const response = await fetch(`${options.apiUrl}/v1/ingest`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${options.tokens[batch.daemon]}`,
          ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body,
      }).catch((error: Error) => ({ status: `error: ${error.message}`, ok: false, text: async () => '' }));
      await response.text();
      result.statuses[String(response.status)] = (result.statuses[String(response.status)] ?? 0) + 1;
      if (response.status === 200) {
        result.accepted += batch.items.length;
        options.onAccepted?.(batch, performance.now());
      } else {
        result.failed += batch.items.length;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  result.elapsedMs = performance.now() - start;
  return result;
}
