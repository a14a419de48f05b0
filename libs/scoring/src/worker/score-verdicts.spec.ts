import { createHash, randomUUID } from 'node:crypto';
import { ScoredEvent } from '../domain/action';
import { blend } from '../domain/blend';
import { scoreEvent } from '../domain/engine';
import { NO_POLICY } from '../domain/policy';
import { verdictIdOf, verdictOf, verdictsOf } from './score-verdicts';

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
});
