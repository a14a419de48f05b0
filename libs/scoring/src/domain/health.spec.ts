import { DependencyHealth, detailedHealth, detailedHealthOf } from './health';

const ok: DependencyHealth = { status: 'ok', latency_ms: 1.3, error: null };
const down: DependencyHealth = { status: 'unavailable', latency_ms: 2000, error: 'no answer within 2000 ms' };
const absent: DependencyHealth = { status: 'not_configured', latency_ms: 0, error: null };

describe('GET /health/detailed answers the documented body, 200 or 503 alike', () => {
  it.each([
    ['ok', { relational_db: ok, cache: ok, graph_db: ok, llm_service: absent }],
    ['degraded', { relational_db: ok, cache: down, graph_db: ok, llm_service: ok }],
    ['unhealthy', { relational_db: ok, cache: ok, graph_db: down, llm_service: ok }],
  ])('%s', (status, checks) => {
    const body = detailedHealthOf(checks);
    expect(body.status).toBe(status);
    expect(detailedHealth.parse(body)).toEqual(body);
  });
});
