import { KafkaHealth } from '@agentwatch/kafka';
import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';

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
  constructor(
    private readonly dataSource: DataSource,
    private readonly kafka: KafkaHealth,
  ) {}

  @Get('health')
  @ApiOkResponse({ description: 'Liveness: the process serves HTTP. Body `{"status":"ok"}`.' })
  health() {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOkResponse({ description: 'Readiness: Kafka and Postgres both answered. `{"status":"ready","checks":{…}}`' })
  @ApiServiceUnavailableResponse({ description: 'A dependency is down: `{"status":"not_ready","checks":{…}}`' })
  async ready(@Res() reply: FastifyReply) {
    const [kafka, postgres] = await Promise.all([
      timed(() => this.kafka.check()),
      timed(() => this.dataSource.query('SELECT 1')),
    ]);
    const ready = kafka.status === 'up' && postgres.status === 'up';
    void reply
      .status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
      .send({ status: ready ? 'ready' : 'not_ready', checks: { kafka, postgres } });
  }
}
