import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { ScoredEvent } from '../domain/action';
import { blend, FinalScore } from '../domain/blend';
import { complianceRefs, mitigationsFor, VIOLATIONS } from '../domain/compliance';
import { GraphScore, scoreEvent } from '../domain/engine';
import { NO_POLICY } from '../domain/policy';
import { outcomeKeyOf, verdictIdOf, verdictOf, verdictsOf } from './score-verdicts';

const event = (orgId: string, args: string[]): ScoredEvent => ({
  id: randomUUID(),
  orgId,
  sessionId: null,
  actionType: 'FILE_READ',
  toolName: 'cat',
  arguments: args,
  decision: 'allow',
  timestamp: '2026-11-01T12:00:00.000Z',
  receivedAt: '2026-11-01T12:00:01.000Z',
});
const scored = (e: ScoredEvent) => {
  const graph = scoreEvent(e, NO_POLICY, []);
  return { event: e, graph, final: blend(graph, null, false) };
};
const [orgA, orgB] = ['b0000000-0000-4000-8000-000000000000', 'a0000000-0000-4000-8000-000000000000'];

describe('score verdicts', () => {
  it('are the six detail documents as stored, named by the SHA-256 of their text', () => {
    const row = scored(event(orgA, ['/home/u/.ssh/id_rsa']));
    const documents = verdictOf(row);
    expect(documents.map((d) => JSON.parse(d))).toEqual([
      row.graph.violations,
      row.graph.complianceRefs,
      row.graph.mitigations,
      row.graph.components,
      row.graph.behavioralFlags,
      row.final.decomposition,
    ]);
    const digest = createHash('sha256').update(documents.join('\n')).digest('hex');
    expect(verdictIdOf(documents.join('\n')).replaceAll('-', '')).toBe(digest.slice(0, 32));
  });

  it('are shared by the scores with the same outcome, once per organization, sorted by organization and id', () => {
    const rows = [
      scored(event(orgA, ['/repo/readme.md'])),
      scored(event(orgA, ['/home/u/.ssh/id_rsa'])),
      scored(event(orgA, ['/repo/other.md'])),
      scored(event(orgB, ['/repo/readme.md'])),
      { event: event(orgB, []), graph: null },
    ];
    const { ids, verdicts } = verdictsOf(rows);
    expect(ids[0]).toBe(ids[2]);
    expect(ids[0]).toBe(ids[3]);
    expect(new Set(ids).size).toBe(3);
    expect(verdicts.map((v) => [v.orgId, v.id])).toEqual(
      [
        [orgA, ids[0]],
        [orgA, ids[1]],
        [orgB, ids[3]],
        [orgB, ids[4]],
      ].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1)),
    );
    expect(verdicts.find((v) => v.id === ids[4])?.documents).toEqual(verdictOf(rows[4]));
  });

  it('are found by an outcome key that two rows share only when their documents agree', () => {
    // Texts from a few characters, the key's separators among them.
    const text = fc.string({ unit: fc.constantFrom('|', '#', ':', '1'), maxLength: 4 });
    const weight = fc.constantFrom(0, 1, 0.4, 0.6, 11);
    const outcome = fc.record({
      components: fc.array(fc.record({ rule: text, contribution: fc.constantFrom(1, 11, -1, 0) }), { maxLength: 2 }),
      violations: fc.uniqueArray(fc.constantFrom(...Object.keys(VIOLATIONS), 'unknown', '1:a'), { maxLength: 2 }),
      flags: fc.uniqueArray(text, { maxLength: 2 }),
      decomposition: fc.option(fc.tuple(weight, weight, fc.constantFrom(null, 0, 11, 1))),
      scored: fc.boolean(),
    });
    const rowOf = (o: typeof outcome extends fc.Arbitrary<infer T> ? T : never) => {
      const graph = {
        components: o.components,
        violations: o.violations,
        complianceRefs: complianceRefs(o.violations),
        mitigations: mitigationsFor(o.violations),
        behavioralFlags: o.flags,
      } as GraphScore;
      const final = o.decomposition && {
        decomposition: {
          graph_weight: o.decomposition[0],
          llm_weight: o.decomposition[1],
          gnn_weight: 0,
          final: o.decomposition[2],
        },
      };
      return { graph: o.scored ? graph : null, final: (final ?? undefined) as FinalScore | undefined };
    };
    // Two outcomes alike but in one field, so that keys often nearly agree.
    const pair = fc
      .tuple(outcome, outcome, fc.constantFrom('components', 'violations', 'flags', 'decomposition', 'scored'))
      .map(([a, other, field]) => [a, { ...a, [field]: other[field] }] as const);
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const [rowA, rowB] = [rowOf(a), rowOf(b)];
        if (outcomeKeyOf(rowA) === outcomeKeyOf(rowB)) expect(verdictOf(rowA)).toEqual(verdictOf(rowB));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(outcome, (a) => {
        // The same outcome built afresh: the key depends on the values, not on which objects hold them.
        expect(outcomeKeyOf(rowOf(structuredClone(a)))).toBe(outcomeKeyOf(rowOf(a)));
      }),
    );
  });

  it('gives different keys to outcomes that differ only where texts meet', () => {
    const base = scored(event(orgA, ['/repo/readme.md']));
    const withGraph = (graph: Partial<GraphScore>) => ({ ...base, graph: { ...base.graph, ...graph } });
    const confusable: [Partial<GraphScore>, Partial<GraphScore>][] = [
      [
        {
          components: [
            { rule: 'a', contribution: 1 },
            { rule: 'b', contribution: 1 },
          ],
        },
        { components: [{ rule: 'a|1:b', contribution: 1 }] },
      ],
      [
        { components: [{ rule: 'a', contribution: 1 }], behavioralFlags: ['b'] },
        { components: [{ rule: 'a#1:b', contribution: 1 }], behavioralFlags: [] },
      ],
      [{ behavioralFlags: ['a', 'b'] }, { behavioralFlags: ['ab'] }],
      [{ behavioralFlags: ['1:a'] }, { behavioralFlags: ['1', 'a'] }],
    ];
    for (const [a, b] of confusable) {
      expect(verdictOf(withGraph(a))).not.toEqual(verdictOf(withGraph(b)));
      expect(outcomeKeyOf(withGraph(a))).not.toBe(outcomeKeyOf(withGraph(b)));
    }
  });

  it('stores a verdict once per organization when two outcome keys name the same documents', () => {
    const unscored = { event: event(orgA, []), graph: null };
    const clean = scored(event(orgA, ['/repo/readme.md']));
    const alike = { ...clean, graph: { ...clean.graph, components: [] }, final: undefined };
    expect(outcomeKeyOf(alike)).not.toBe(outcomeKeyOf(unscored));
    expect(verdictOf(alike)).toEqual(verdictOf(unscored));
    const { ids, verdicts } = verdictsOf([unscored, alike, { ...alike, event: event(orgB, []) }]);
    expect(new Set(ids).size).toBe(1);
    expect(verdicts.map((v) => v.orgId).sort()).toEqual([orgA, orgB].sort());
  });
});
