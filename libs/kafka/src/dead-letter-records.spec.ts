import { listLine, redriveMessage, showRecord, toDeadLetter } from './dead-letter-records';
import { ExportRecord } from './topic-export-format';

const refused: ExportRecord = {
  partition: 2,
  offset: '41',
  key: 'session-1',
  timestamp: Date.UTC(2026, 10, 24, 12, 0, 0),
  value: '{"n":-1}',
  headers: {
    ce_specversion: '1.0',
    ce_id: 'e-1',
    org_id: 'org-b',
    dlq_error: 'new row violates check constraint\n"rows_n_check"',
    dlq_sqlstate: '23514',
    dlq_reason: 'refused',
    dlq_source_topic: 'p.ingest.sessions.v1',
    dlq_source_partition: '5',
    dlq_source_offset: '1007',
    dlq_org_id: 'org-b',
    dlq_projection: 'sessions',
    dlq_consumer_group: 'p.projector.ingest',
    dlq_time: '2026-11-24T12:00:01.000Z',
  },
};

describe('dead-letter records', () => {
  const letter = toDeadLetter('p.ingest.sessions.v1.dlq', refused);

  it('reads where a dead letter came from, whose it is and why from its headers', () => {
    expect(letter).toMatchObject({
      source: { topic: 'p.ingest.sessions.v1', partition: 5, offset: '1007' },
      org: 'org-b',
      projection: 'sessions',
      reason: 'refused',
      sqlstate: '23514',
    });
  });

  it('lists it on one line, without the deployment prefix, the error on one line too', () => {
    expect(listLine(letter, 'p.', true)).toBe(
      'ingest.sessions.v1.dlq 2 41  source=ingest.sessions.v1/5@1007  org=org-b  projection=sessions  reason=refused' +
        '  sqlstate=23514  redriven  error="new row violates check constraint \\"rows_n_check\\""',
    );
  });

  it('shows the value as JSON when it is JSON, and as text when it is not', () => {
    expect(JSON.parse(showRecord(letter)).value).toEqual({ n: -1 });
    const garbled = toDeadLetter('p.t.dlq', { ...refused, value: 'not json' });
    expect(JSON.parse(showRecord(garbled)).value).toBe('not json');
  });

  it('redrives the original record to its source topic, for the projection that refused it only', () => {
    expect(redriveMessage(letter)).toEqual({
      topic: 'p.ingest.sessions.v1',
      key: 'session-1',
      value: '{"n":-1}',
      headers: {
        ce_specversion: '1.0',
        ce_id: 'e-1',
        org_id: 'org-b',
        redriven_from: 'p.ingest.sessions.v1.dlq/2@41',
        redrive_projection: 'sessions',
      },
    });
  });

  it('redrives a record that failed to decode to every projection, and refuses one that names no source', () => {
    const decode = toDeadLetter('p.t.dlq', { ...refused, headers: { ...refused.headers, dlq_reason: 'decode' } });
    expect(redriveMessage(decode).headers).not.toHaveProperty('redrive_projection');
    const handMade = toDeadLetter('p.t.dlq', { ...refused, headers: { org_id: 'org-b' } });
    expect(handMade.org).toBe('org-b');
    expect(() => redriveMessage(handMade)).toThrow(/names no source topic/);
  });

  it('does not carry an earlier redrive header into the next one', () => {
    const again = toDeadLetter('p.t.dlq', {
      ...refused,
      headers: { ...refused.headers, redriven_from: 'old', redrive_projection: 'sessions' },
      offset: '50',
    });
    expect(redriveMessage(again).headers.redriven_from).toBe('p.t.dlq/2@50');
  });
});
