import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { register } from 'prom-client';

/** Prometheus exposition of the process's metrics (the default registry). */
@Controller()
export class MetricsController {
  @Get('metrics')
  @ApiExcludeEndpoint()
  @Header('Content-Type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
