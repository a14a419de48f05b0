import { CustomRule, LIST_FIELDS, PolicyDocument, PolicyField } from './policy';

export interface FieldDiff {
  field: PolicyField;
  added: string[];
  removed: string[];
  /** Custom rules whose id stayed but whose condition, impact or description changed. */
  changed: string[];
}

const ruleText = (id: string, rule: CustomRule) =>
  `${id}: ${rule.condition} (${rule.score_impact >= 0 ? '+' : ''}${rule.score_impact}) ${rule.description}`.trim();

const sameRule = (a: CustomRule, b: CustomRule) =>
  a.condition === b.condition && a.score_impact === b.score_impact && a.description === b.description;

/**
 * What a version changed against the one before it (null: it is the first), field by field: values
 * added and removed; custom rules by id, a changed rule shown as its old text removed, its new added.
 * Only the fields that changed are listed.
 */
export function diffPolicies(before: Partial<PolicyDocument> | null, after: Partial<PolicyDocument>): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const field of LIST_FIELDS) {
    const old = new Set(before?.[field] ?? []);
    const now = new Set(after[field] ?? []);
    const added = [...now].filter((value) => !old.has(value));
    const removed = [...old].filter((value) => !now.has(value));
    if (added.length || removed.length) diffs.push({ field, added, removed, changed: [] });
  }
  const oldRules = before?.custom_rules ?? {};
  const newRules = after.custom_rules ?? {};
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [id, rule] of Object.entries(newRules)) {
    const old = oldRules[id];
    if (!old) added.push(ruleText(id, rule));
    else if (!sameRule(old, rule)) {
      changed.push(id);
      removed.push(ruleText(id, old));
      added.push(ruleText(id, rule));
    }
  }
  for (const [id, rule] of Object.entries(oldRules)) if (!(id in newRules)) removed.push(ruleText(id, rule));
  if (added.length || removed.length) diffs.push({ field: 'custom_rules', added, removed, changed });
  return diffs;
}
