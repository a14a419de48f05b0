import { fuzzBudget } from '@agentwatch/testing';
import fc from 'fast-check';
import { commitIsolating, halves, Run, RunCommitter } from './poison-isolation';

interface Rec {
  offset: string;
}

const serverError = (code: string) => Object.assign(new Error(`refused (${code})`), { code, severity: 'ERROR' });

/**
 * A database in miniature: refuses a transaction holding a poison record, or both records of a
 * conflicting pair (one upsert naming a row twice); fails the transaction numbered `transientAt`
 * with a lost connection. It checks what exactly-once needs of every commit: it starts at the
 * checkpoint and holds every record up to its `next`, no more, no fewer.
 */
class MiniDatabase implements RunCommitter<Rec> {
  checkpoint: string;
  readonly applied: string[] = [];
  readonly dead: string[] = [];
  transactions = 0;

  constructor(
    private readonly all: Rec[],
    start: string,
    private readonly poison: Set<string>,
    private readonly pairs: [string, string][],
    private readonly transientAt = -1,
  ) {
    this.checkpoint = start;
  }

  async commit(records: Rec[], next: string): Promise<void> {
    this.begin(records, next);
    const offsets = new Set(records.map((r) => r.offset));
    if (records.some((r) => this.poison.has(r.offset))) throw serverError('23514');
    if (this.pairs.some(([a, b]) => offsets.has(a) && offsets.has(b))) throw serverError('21000');
    this.applied.push(...offsets);
    this.checkpoint = next;
  }

  async commitAlone(record: Rec, next: string): Promise<void> {
    this.begin([record], next);
    (this.poison.has(record.offset) ? this.dead : this.applied).push(record.offset);
    this.checkpoint = next;
  }

  private begin(records: Rec[], next: string): void {
    if (this.transactions++ === this.transientAt)
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const expected = this.all.filter(
      (r) => BigInt(r.offset) >= BigInt(this.checkpoint) && BigInt(r.offset) < BigInt(next),
    );
    expect(records.map((r) => r.offset)).toEqual(expected.map((r) => r.offset));
  }
}

/** Ascending offsets with gaps (records dead-lettered as undecodable before the transaction), and the batch's end. */
const batches = fc
  .uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 60 })
  .map((xs) => xs.sort((a, b) => a - b))
  .chain((xs) =>
    fc.record({
      records: fc.constant(xs.map((x) => ({ offset: String(x) }))),
      next: fc.integer({ min: xs[xs.length - 1] + 1, max: xs[xs.length - 1] + 5 }).map(String),
      poison: fc.subarray(xs.map(String), { maxLength: Math.min(4, xs.length) }),
      pairs: fc.array(fc.tuple(fc.constantFrom(...xs.map(String)), fc.constantFrom(...xs.map(String))), {
        maxLength: 3,
      }),
    }),
  );

const { seed, runs } = fuzzBudget();
const budget = { seed, numRuns: runs(200) };

describe('halves', () => {
  it('splits a run into two non-empty contiguous runs that cover it', () => {
    fc.assert(
      fc.property(batches, ({ records, next }) => {
        fc.pre(records.length >= 2);
        const [first, second] = halves({ records, next });
        expect(first.records.length).toBeGreaterThan(0);
        expect(second.records.length).toBeGreaterThan(0);
        expect([...first.records, ...second.records]).toEqual(records);
        expect(first.next).toBe(second.records[0].offset);
        expect(second.next).toBe(next);
      }),
      budget,
    );
  });

  it('refuses to split a single record', () => {
    expect(() => halves({ records: [{ offset: '3' }], next: '4' })).toThrow(/two or more/);
  });
});

describe('commitIsolating', () => {
  const start = (run: Run<Rec>) => run.records[0].offset;

  it('commits a clean run whole, in one transaction', async () => {
    const run = { records: [{ offset: '5' }, { offset: '7' }], next: '8' };
    const db = new MiniDatabase(run.records, '5', new Set(), []);
    expect(await commitIsolating(db, run)).toBeNull();
    expect(db.transactions).toBe(1);
    expect(db.checkpoint).toBe('8');
  });

  it('lands every record but the poison ones exactly once, dead-letters each poison record once, and ends at the batch end', async () => {
    await fc.assert(
      fc.asyncProperty(batches, async ({ records, next, poison, pairs }) => {
        const db = new MiniDatabase(records, start({ records, next }), new Set(poison), pairs);
        const refused = await commitIsolating(db, { records, next });
        const clean = records.map((r) => r.offset).filter((o) => !poison.includes(o));
        expect([...db.applied].sort()).toEqual([...clean].sort());
        expect([...db.dead].sort()).toEqual([...poison].sort());
        expect(db.checkpoint).toBe(next);
        expect(refused === null).toBe(poison.length === 0 && pairs.length === 0);
      }),
      budget,
    );
  });

  it('throws a transient error as it is, and a retry from the checkpoint completes without a duplicate', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.nat(30), async ({ records, next, poison, pairs }, failAt) => {
        const db = new MiniDatabase(records, start({ records, next }), new Set(poison), pairs, failAt);
        let attempts = 0;
        for (;;) {
          attempts++;
          const remaining = records.filter((r) => BigInt(r.offset) >= BigInt(db.checkpoint));
          try {
            await commitIsolating(db, { records: remaining, next });
            break;
          } catch (error) {
            expect((error as { code?: string }).code).toBe('ECONNRESET');
          }
        }
        expect(attempts).toBe(db.transactions > failAt ? 2 : 1);
        expect(new Set(db.applied).size).toBe(db.applied.length);
        expect(new Set(db.dead).size).toBe(db.dead.length);
        expect(db.applied.length + db.dead.length).toBe(records.length);
        expect(db.checkpoint).toBe(next);
      }),
      budget,
    );
  });
});
