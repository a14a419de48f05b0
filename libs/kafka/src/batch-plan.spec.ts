import fc from 'fast-check';
import { lowest, needsLowWatermark, planBatch, resumeAt } from './batch-plan';

const records = (...offsets: number[]) => offsets.map((o) => ({ offset: String(o) }));
const at = (member: string, expected: number | null) => ({
  member,
  expected: expected === null ? null : String(expected),
});

describe('batch plan', () => {
  it('projects a batch from the lowest checkpoint, every member behind it applying', () => {
    const plan = planBatch([at('a', 10), at('b', 12)], null, records(10, 11, 12, 13));
    expect(plan).toEqual({
      action: 'project',
      positions: [
        { member: 'a', expected: '10', start: '10' },
        { member: 'b', expected: '12', start: '12' },
      ],
      fresh: records(10, 11, 12, 13),
      next: '14',
      applying: ['a', 'b'],
      sittingOut: [],
    });
  });

  it('drops the records below every checkpoint: they count as applied', () => {
    const plan = planBatch([at('a', 12)], null, records(10, 11, 12, 13));
    expect(plan).toMatchObject({ action: 'project', fresh: records(12, 13), next: '14' });
  });

  it('a member whose checkpoint is already past the batch sits it out', () => {
    const plan = planBatch([at('a', 10), at('rebuilt', 20)], null, records(10, 11));
    expect(plan).toMatchObject({ action: 'project', next: '12', applying: ['a'], sittingOut: ['rebuilt'] });
  });

  it('a member without a checkpoint starts at the low watermark, asked of the broker', () => {
    expect(needsLowWatermark(['10', null], '10')).toBe(true);
    const plan = planBatch([at('a', 10), at('new', null)], '4', records(4, 5, 10));
    expect(plan).toMatchObject({ action: 'project', fresh: records(4, 5, 10), applying: ['a', 'new'] });
    expect(plan.action === 'project' && plan.positions[1]).toEqual({ member: 'new', expected: null, start: '4' });
  });

  it('records past the checkpoint that retention kept: seek back to the checkpoint', () => {
    expect(needsLowWatermark(['7', '9'], '12')).toBe(true);
    expect(planBatch([at('a', 7), at('b', 9)], '0', records(12, 13))).toEqual({ action: 'seek', offset: '7' });
    expect(planBatch([at('a', 7)], '7', records(12, 13))).toEqual({ action: 'seek', offset: '7' });
  });

  it('records past the checkpoint that retention deleted in between: project what is there', () => {
    expect(planBatch([at('a', 7)], '8', records(12, 13))).toMatchObject({
      action: 'project',
      fresh: records(12, 13),
      next: '14',
      applying: ['a'],
    });
  });

  it('a batch wholly below every checkpoint projects nothing', () => {
    expect(needsLowWatermark(['20'], '10')).toBe(false);
    expect(planBatch([at('a', 20)], null, records(10, 11))).toMatchObject({ action: 'skip' });
  });

  it('refuses to plan without the low watermark it needs, and an empty batch', () => {
    expect(() => planBatch([at('a', null)], null, records(1))).toThrow(/low watermark/);
    expect(() => planBatch([at('a', 1)], null, records(5))).toThrow(/low watermark/);
    expect(() => planBatch([at('a', 1)], '0', [])).toThrow(/empty batch/);
  });

  it('compares offsets as numbers, not text, past 2^53', () => {
    expect(lowest(['10', '9', null])).toBe('9');
    expect(lowest(['9007199254740993', '9007199254740992'])).toBe('9007199254740992');
    expect(lowest([null])).toBe('0');
    const plan = planBatch([at('a', 99)], null, records(99, 100));
    expect(plan).toMatchObject({ action: 'project', next: '101' });
  });

  it('resumes a partition at the lowest checkpoint, or leaves it when a member has none', () => {
    expect(resumeAt(['30', '12'])).toBe('12');
    expect(resumeAt(['30', null])).toBeNull();
  });

  it('for any checkpoints and contiguous batch, fresh is exactly the records at or past the lowest start', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.nat(60), { nil: null }), { minLength: 1, maxLength: 4 }),
        fc.nat(30),
        fc.nat(60),
        fc.integer({ min: 1, max: 20 }),
        (expected, low, first, length) => {
          const batch = records(...Array.from({ length }, (_, i) => first + i));
          const checkpoints = expected.map((e, i) => at(`m${i}`, e));
          const plan = planBatch(checkpoints, String(low), batch);
          const starts = expected.map((e) => e ?? low);
          const start = Math.min(...starts);
          if (first > start && low <= start) return expect(plan).toEqual({ action: 'seek', offset: String(start) });
          const fresh = batch.filter((r) => Number(r.offset) >= start);
          if (fresh.length === 0) return expect(plan.action).toBe('skip');
          const next = Number(fresh[fresh.length - 1].offset) + 1;
          expect(plan).toMatchObject({ action: 'project', fresh, next: String(next) });
          if (plan.action !== 'project') return;
          expect(plan.applying).toEqual(checkpoints.filter((_, i) => starts[i] < next).map((c) => c.member));
          expect([...plan.applying, ...plan.sittingOut].sort()).toEqual(checkpoints.map((c) => c.member).sort());
        },
      ),
    );
  });
});
