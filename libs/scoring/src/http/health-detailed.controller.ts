import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { DependencyHealth, overallStatus } from '../domain/health';
import { LlmScorer } from '../llm/llm-scorer';

async function timed(probe: () => Promise<unknown>): Promise<DependencyHealth> {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    await probe();
    return { status: 'ok', latency_ms: ms(), error: null };
  } catch (error) {
    return { status: 'unavailable', latency_ms: ms(), error: (error as Error).message };
  }
}

@ApiTags('health')
@Controller('health')
export class HealthDetailedController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly llm: LlmScorer,
  ) {}

  @Get('detailed')
  @ApiOkResponse({
    description:
      'No authentication. `{status, relational_db, cache, graph_db, llm_service}`, each `{status, latency_ms, error}` ' +
      'with status `ok`, `unavailable` or `not_configured` (LLM_URL unset). Overall `ok`; `degraded` when the cache or ' +
      'the model is unavailable (scores fall back to the rule engine).',
  })
  @ApiServiceUnavailableResponse({ description: '`unhealthy`: the relational or graph store is unavailable.' })
  async detailed(@Res() reply: FastifyReply) {
    // The cache and the graph live in Postgres tables of their own: each check reads its table.
    const [relational_db, cache, graph_db, llm_service] = await Promise.all([
      timed(() => this.dataSource.query('SELECT 1')),
      timed(() => this.dataSource.query('SELECT 1 FROM scoring_llm_cache LIMIT 1')),
      timed(() => this.dataSource.query('SELECT 1 FROM scoring_graph_nodes LIMIT 1')),
      this.llm.configured
        ? timed(() => this.llm.probe())
        : Promise.resolve<DependencyHealth>({ status: 'not_configured', latency_ms: 0, error: null }),
    ]);
    const checks = { relational_db, cache, graph_db, llm_service };
    const status = overallStatus(checks);
    void reply.status(status === 'unhealthy' ? 503 : 200).send({ status, ...checks });
  }
}
