import { classifyFailure, sqlstateOf, withoutRecordContent } from './refusal';

/** What pg throws for an error response: the server's severity and SQLSTATE on an Error. */
const pgError = (code: string) => Object.assign(new Error(`server said ${code}`), { code, severity: 'ERROR' });
/** What TypeORM throws around it: the driver's fields copied, the original kept as driverError. */
const queryFailed = (code: string) =>
  Object.assign(new Error('QueryFailedError'), { driverError: pgError(code), code, severity: 'ERROR' });

describe('classifyFailure', () => {
  it.each([
    ['21000', 'ON CONFLICT DO UPDATE cannot affect row a second time'],
    ['22021', 'NUL byte in text'],
    ['22P02', 'invalid text representation'],
    ['22008', 'timestamp out of range'],
    ['22003', 'numeric out of range'],
    ['23514', 'CHECK violation'],
    ['23502', 'NOT NULL violation'],
    ['23503', 'foreign key violation'],
    ['23505', 'unique violation'],
    ['54000', 'index row too large'],
  ])('calls %s (%s) a content error', (code) => {
    expect(classifyFailure(pgError(code))).toBe('content');
    expect(classifyFailure(queryFailed(code))).toBe('content');
  });

  it.each([
    ['08006', 'connection failure'],
    ['08003', 'connection does not exist'],
    ['40001', 'serialization failure'],
    ['40P01', 'deadlock'],
    ['57P01', 'admin shutdown'],
    ['57P03', 'cannot connect now'],
    ['53300', 'too many connections'],
    ['53100', 'disk full'],
    ['42P01', 'undefined table (a deploy in progress)'],
    ['55P03', 'lock not available'],
  ])('calls %s (%s) transient', (code) => {
    expect(classifyFailure(pgError(code))).toBe('transient');
    expect(classifyFailure(queryFailed(code))).toBe('transient');
  });

  it('calls errors without a SQLSTATE transient: a dropped socket, a timeout, a thrown string', () => {
    expect(classifyFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe('transient');
    expect(classifyFailure(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe('transient');
    expect(classifyFailure(new Error('Connection terminated unexpectedly'))).toBe('transient');
    expect(classifyFailure('boom')).toBe('transient');
    expect(classifyFailure(null)).toBe('transient');
  });
});

describe('sqlstateOf', () => {
  it("prefers the driver's code and ignores codes that cannot be a SQLSTATE", () => {
    expect(sqlstateOf(queryFailed('23514'))).toBe('23514');
    expect(sqlstateOf({ code: 'ERR_X', driverError: { code: '22P02', severity: 'ERROR' } })).toBe('22P02');
    expect(sqlstateOf({ code: 'EPIPE' })).toBeUndefined();
    expect(sqlstateOf({ code: 'EPIPE', driverError: new Error('socket') })).toBeUndefined();
    expect(sqlstateOf({ code: 23514, severity: 'ERROR' })).toBeUndefined();
    expect(sqlstateOf(undefined)).toBeUndefined();
  });
});

describe('a failed batch as kafkajs logs it', () => {
  it('keeps the message and the SQLSTATE, and drops the parameters the statement carried', () => {
    const failed = Object.assign(new Error('connection terminated'), {
      query: 'INSERT INTO events …',
      parameters: [['secret argument']],
      driverError: { code: '57P01', severity: 'FATAL' },
    });
    const reported = withoutRecordContent(failed, 'batch t/0@12');
    expect(reported.message).toBe('batch t/0@12: connection terminated (SQLSTATE 57P01)');
    expect(JSON.stringify(reported, Object.getOwnPropertyNames(reported))).not.toContain('secret argument');
  });
});
