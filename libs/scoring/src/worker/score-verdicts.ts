import { hash } from 'node:crypto';
import { FinalScore } from '../domain/blend';
import { GraphScore } from '../domain/engine';

/** What a verdict is made of: the rules' outcome and its blend with the model. */
interface Scored {
  event: { orgId: string };
  graph: GraphScore | null;
  final?: FinalScore;
}
type Outcome = Omit<Scored, 'event'>;

/**
 * A score's detail documents as stored (JSON text), in the order of score_verdicts' columns. They
 * follow from the rules that hit, so thousands of scores share each set: it is stored once per
 * organization, named by verdictIdOf (see the ScoreVerdicts migration).
 */
export function verdictOf({ graph, final }: Outcome): string[] {
  // Components and weights field by field: what outcomeKeyOf reads is all that is stored.
  const d = final?.decomposition ?? { graph_weight: 1, llm_weight: 0, gnn_weight: 0, final: null };
  return [
    JSON.stringify(graph?.violations ?? []),
    JSON.stringify(graph?.complianceRefs ?? []),
    JSON.stringify(graph?.mitigations ?? []),
    JSON.stringify(graph?.components.map(({ rule, contribution }) => ({ rule, contribution })) ?? []),
    JSON.stringify(graph?.behavioralFlags ?? []),
    JSON.stringify({
      graph_weight: d.graph_weight,
      llm_weight: d.llm_weight,
      gnn_weight: d.gnn_weight,
      final: d.final,
    }),
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
 * A batch's rows share a few outcomes: each is serialized and hashed once, found by outcomeKeyOf
 * (serializing every row and looking its kilobyte of text up took 3 µs a row).
 */
export function verdictsOf(rows: Scored[]): { ids: string[]; verdicts: Verdict[] } {
  const byOutcome = new Map<string, { id: string; documents: string[]; orgIds: Set<string> }>();
  // Two outcome keys may name one verdict: they share its organizations, so it is added once per organization.
  const orgIdsOf = new Map<string, Set<string>>();
  const verdicts: Verdict[] = [];
  const ids = rows.map((row) => {
    const { orgId } = row.event;
    const outcome = outcomeKeyOf(row);
    let verdict = byOutcome.get(outcome);
    if (verdict === undefined) {
      const documents = verdictOf(row);
      const id = verdictIdOf(documents.join('\n'));
      const orgIds = orgIdsOf.get(id) ?? new Set<string>();
      orgIdsOf.set(id, orgIds);
      verdict = { id, documents, orgIds };
      byOutcome.set(outcome, verdict);
    }
    if (!verdict.orgIds.has(orgId)) {
      verdict.orgIds.add(orgId);
      verdicts.push({ orgId, id: verdict.id, documents: verdict.documents });
    }
    return verdict.id;
  });
  verdicts.sort((a, b) => (a.orgId === b.orgId ? (a.id < b.id ? -1 : 1) : a.orgId < b.orgId ? -1 : 1));
  return { ids, verdicts };
}

/** Each text with its length first: a list of them reads back one way only, whatever the texts hold. */
const measured = (texts: readonly string[]) => {
  let key = '';
  for (const text of texts) key += `${text.length}:${text}`;
  return key;
};

/**
 * What verdictOf serializes, in a short key: rows with the same key have the same documents. The
 * compliance references and mitigations are left out because scoreEvent derives both from the
 * violations (compliance.ts); a long key cost as much to look up as the documents cost to build.
 * (Two keys may still name one text: it is then hashed twice, to the same verdict.)
 */
export function outcomeKeyOf({ graph, final }: Outcome): string {
  const d = final?.decomposition;
  const weights = d ? `${d.graph_weight}/${d.llm_weight}/${d.gnn_weight}/${d.final}` : '-';
  if (!graph) return `~${weights}`;
  let components = '';
  for (const c of graph.components) components += `|${c.contribution}:${c.rule.length}:${c.rule}`;
  return `${weights}${components}#${measured(graph.violations)}#${measured(graph.behavioralFlags)}`;
}
