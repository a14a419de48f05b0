import { parsePrometheusText } from './prometheus-text';

describe('parsePrometheusText', () => {
  it('reads samples with and without labels, escapes, special values and timestamps', () => {
    const text = [
      '# HELP agentwatch_x_seconds Time "quoted"',
      '# TYPE agentwatch_x_seconds histogram',
      'agentwatch_x_seconds_bucket{le="0.5",consumer="ingest",topic="bench-a.ingest.events.v1"} 3',
      'agentwatch_x_seconds_bucket{le="+Inf",consumer="ingest",topic="bench-a.ingest.events.v1"} 4',
      'process_cpu_seconds_total 12.5 1700000000000',
      '',
      'odd{path="C:\\\\dir",say="a \\"b\\"\\nc",} NaN',
      'up{} +Inf',
    ].join('\n');
    expect(parsePrometheusText(text)).toEqual([
      {
        name: 'agentwatch_x_seconds_bucket',
        labels: { le: '0.5', consumer: 'ingest', topic: 'bench-a.ingest.events.v1' },
        value: 3,
      },
      {
        name: 'agentwatch_x_seconds_bucket',
        labels: { le: '+Inf', consumer: 'ingest', topic: 'bench-a.ingest.events.v1' },
        value: 4,
      },
      { name: 'process_cpu_seconds_total', labels: {}, value: 12.5 },
      { name: 'odd', labels: { path: 'C:\\dir', say: 'a "b"\nc' }, value: Number.NaN },
      { name: 'up', labels: {}, value: Infinity },
    ]);
  });

  it('refuses a line that is no sample', () => {
    expect(() => parsePrometheusText('{le="1"} 3')).toThrow('not a sample line');
    expect(() => parsePrometheusText('x{le="1} 3')).toThrow('unterminated');
  });
});
