import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';

/**
 * A dependency /ready probes: resolves when it answers, rejects with the reason when it does not.
 * The infrastructure libs implement it (KafkaHealth, PostgresHealth) and each app names its own in
 * its AppDefinition, so this lib knows neither Kafka nor Postgres.
 */
export interface ReadinessCheck {
  /** The key of its entry in the /ready body's `checks`. */
  readonly name: string;
  check(): Promise<void>;
}

/** The injection token of the app's checks, in the order its definition lists them. */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

interface Check {
  status: 'up' | 'down';
  latency_ms: number;
  error: string | null;
}

async function timed(probe: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  try {
    await probe();
    return { status: 'up', latency_ms: Math.round(performance.now() - started), error: null };
  } catch (error) {
    return { status: 'down', latency_ms: Math.round(performance.now() - started), error: (error as Error).message };
  }
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('health')
  @ApiOkResponse({ description: 'Liveness: the process serves HTTP. Body `{"status":"ok"}`.' })
  health() {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOkResponse({ description: 'Readiness: Kafka and Postgres both answered. `{"status":"ready","checks":{…}}`' })
  @ApiServiceUnavailableResponse({ description: 'A dependency is down: `{"status":"not_ready","checks":{…}}`' })
  async ready(@Res() reply: FastifyReply) {
    const results = await Promise.all(this.checks.map((c) => timed(() => c.check())));
    const ready = results.every((r) => r.status === 'up');
    const checks = Object.fromEntries(this.checks.map((c, i) => [c.name, results[i]]));
    void reply
      .status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
      .send({ status: ready ? 'ready' : 'not_ready', checks });
  }
}
