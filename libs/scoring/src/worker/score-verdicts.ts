import { hash } from 'node:crypto';
import { FinalScore } from '../domain/blend';
import { GraphScore } from '../domain/engine';

/** What a verdict is made of: the rules' outcome and its blend with the model. */
interface Scored {
  event: { orgId: string };
  graph: GraphScore | null;
  final?: FinalScore;
}

/**
 * A score's detail documents as stored (JSON text), in the order of score_verdicts' columns. They
 * follow from the rules that hit, so thousands of scores share each set: it is stored once per
 * organization, named by verdictIdOf (see the ScoreVerdicts migration).
 */
export function verdictOf(row: Scored): string[] {
  return [
    JSON.stringify(row.graph?.violations ?? []),
    JSON.stringify(row.graph?.complianceRefs ?? []),
    JSON.stringify(row.graph?.mitigations ?? []),
    JSON.stringify(row.graph?.components ?? []),
    JSON.stringify(row.graph?.behavioralFlags ?? []),
    JSON.stringify(row.final?.decomposition ?? { graph_weight: 1, llm_weight: 0, gnn_weight: 0, final: null }),
  ];
}

/** The first 16 bytes of the SHA-256 of the documents joined by newlines, as a UUID: what the migration computes too. */
export function verdictIdOf(documentsText: string): string {
  const hex = hash('sha256', documentsText, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface Verdict {
  orgId: string;
  id: string;
  documents: string[];
}

/**
 * Each row's verdict id, and the batch's distinct verdicts sorted by (organization, id): two
 * transactions adding the same new verdicts take their keys in one order, so they never deadlock.
 */
export function verdictsOf(rows: Scored[]): { ids: string[]; verdicts: Verdict[] } {
  const idOfText = new Map<string, string>();
  const distinct = new Map<string, Verdict>();
  const ids = rows.map((row) => {
    const documents = verdictOf(row);
    const text = documents.join('\n');
    let id = idOfText.get(text);
    if (id === undefined) {
      id = verdictIdOf(text);
      idOfText.set(text, id);
    }
    const key = `${row.event.orgId}/${id}`;
    if (!distinct.has(key)) distinct.set(key, { orgId: row.event.orgId, id, documents });
    return id;
  });
  const verdicts = [...distinct.values()].sort((a, b) =>
    a.orgId === b.orgId ? (a.id < b.id ? -1 : 1) : a.orgId < b.orgId ? -1 : 1,
  );
  return { ids, verdicts };
}
