import { randomUUID } from 'node:crypto';
import { Queryable } from '@agentwatch/db';
import { responseSchema } from '@agentwatch/http';
import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { ScoredEvent } from '../domain/action';
import { DependencyHealth, detailedHealth, detailedHealthOf } from '../domain/health';
import { LlmScorer, readLlmCache } from '../llm/llm-scorer';
import { loadTreeHistory } from '../worker/session-graph';

/** A store that does not answer within this long is unavailable: a health check must not hang on a lock. */
export const PROBE_TIMEOUT_MS = 2000;

async function timed(probe: () => Promise<unknown>): Promise<DependencyHealth> {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', latency_ms: ms(), error: null };
  } catch (error) {
    return { status: 'unavailable', latency_ms: ms(), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

const DESCRIPTION =
  'No authentication. `{status, relational_db, cache, graph_db, llm_service}`, each `{status, latency_ms, error}` with ' +
  'status `ok`, `unavailable` or `not_configured`. What each entry checks: ' +
  '`relational_db`: PostgreSQL answers a query. ' +
  '`cache`: the model-answer cache, the table `scoring_llm_cache` shared by every scoring worker (fingerprint → model ' +
  "score), read with the worker's own cache lookup. " +
  '`graph_db`: the session graph store, the table `scoring_graph_nodes` the worker writes and reads for session-tree ' +
  "rules, read with the worker's own tree query (through `sessions`). " +
  '`llm_service`: `GET <LLM_URL>/models` (`not_configured` while LLM_URL is unset). ' +
  'Both stores live in PostgreSQL; each is probed in its own read-only transaction under a ' +
  `${PROBE_TIMEOUT_MS} ms statement timeout, so a store that is missing, unreadable or locked (a rebuild) is reported on ` +
  'its own entry while the database itself answers. Overall `ok`; `degraded` when the cache or the model is ' +
  'unavailable (scores fall back to the rule engine).';

@ApiTags('health')
@Controller('health')
export class HealthDetailedController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly llm: LlmScorer,
  ) {}

  @Get('detailed')
  @ApiOkResponse({ description: DESCRIPTION, schema: responseSchema(detailedHealth) })
  @ApiServiceUnavailableResponse({
    description: '`unhealthy`: the relational database or the graph store is unavailable.',
    schema: responseSchema(detailedHealth),
  })
  async detailed(@Res() reply: FastifyReply) {
    // A key no organization has: the lookups run their real plans and find nothing.
    const orgId = randomUUID();
    const [relational_db, cache, graph_db, llm_service] = await Promise.all([
      timed(() => this.dataSource.query('SELECT 1')),
      timed(() => this.readOnly(orgId, (q) => readLlmCache(q, [{ orgId, fingerprint: 'health-check' }]))),
      timed(() => this.readOnly(orgId, (q) => loadTreeHistory(q, [probeEvent(orgId)]))),
      this.llm.configured
        ? timed(() => this.llm.probe())
        : Promise.resolve<DependencyHealth>({ status: 'not_configured', latency_ms: 0, error: null }),
    ]);
    const body = detailedHealthOf({ relational_db, cache, graph_db, llm_service });
    void reply.status(body.status === 'unhealthy' ? 503 : 200).send(body);
  }

  private readOnly<T>(orgId: string, work: (q: Queryable) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (q) => {
      await q.query('SET TRANSACTION READ ONLY');
      await q.query(`SELECT set_config('statement_timeout', $1, true), set_config('app.org_id', $2, true)`, [
        String(PROBE_TIMEOUT_MS),
        orgId,
      ]);
      return work(q);
    });
  }
}

const probeEvent = (orgId: string): ScoredEvent => ({
  id: randomUUID(),
  orgId,
  sessionId: randomUUID(),
  actionType: 'FILE_READ',
  toolName: null,
  arguments: [],
  decision: 'allow',
  timestamp: new Date().toISOString(),
  receivedAt: new Date().toISOString(),
});
