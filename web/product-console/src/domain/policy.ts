/** The seven policy fields in the spec's order, and how the editor names them. */
export const LIST_FIELDS = [
  'sensitive_fields',
  'allowed_tools',
  'blocked_actions',
  'allowed_action_patterns',
  'blocked_action_patterns',
  'sensitive_classifications',
] as const;

export type ListField = (typeof LIST_FIELDS)[number];

export type PolicyField = ListField | 'custom_rules';

const POLICY_FIELDS: readonly PolicyField[] = [...LIST_FIELDS, 'custom_rules'];

export const FIELD_LABELS: Record<PolicyField, string> = {
  sensitive_fields: 'Sensitive fields',
  allowed_tools: 'Allowed tools',
  blocked_actions: 'Blocked actions',
  allowed_action_patterns: 'Allowed action patterns',
  blocked_action_patterns: 'Blocked action patterns',
  sensitive_classifications: 'Sensitive classifications',
  custom_rules: 'Custom rules',
};

/** Fields whose entries are `domain:scope:verb` (the server checks their shape). */
export const PATTERN_FIELDS: readonly ListField[] = [
  'blocked_actions',
  'allowed_action_patterns',
  'blocked_action_patterns',
];

export interface CustomRule {
  condition: string;
  score_impact: number;
  description: string;
}

export type PolicyDocument = Record<ListField, string[]> & { custom_rules: Record<string, CustomRule> };

export const MIN_SCORE_IMPACT = -100;
export const MAX_SCORE_IMPACT = 100;
const RULE_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** A custom rule as the editor holds it: a row with its own key, the id editable, the impact possibly blank. */
export interface RuleRow {
  key: string;
  id: string;
  condition: string;
  score_impact: number | '';
  description: string;
}

export interface PolicyDraft {
  lists: Record<ListField, string[]>;
  rules: RuleRow[];
}

/** A stored policy (or none yet) as an editable draft; `key` numbers the rule rows. */
export function draftOf(document: Partial<PolicyDocument> | null, key: (index: number) => string): PolicyDraft {
  const lists = Object.fromEntries(LIST_FIELDS.map((field) => [field, [...(document?.[field] ?? [])]])) as Record<
    ListField,
    string[]
  >;
  const rules = Object.entries(document?.custom_rules ?? {}).map(([id, rule], index) => ({
    key: key(index),
    id,
    condition: rule.condition,
    score_impact: rule.score_impact,
    description: rule.description,
  }));
  return { lists, rules };
}

/** The PUT body: all seven fields, so nothing is left to a default the user did not see. */
export function documentOf(draft: PolicyDraft): PolicyDocument {
  return {
    ...draft.lists,
    custom_rules: Object.fromEntries(
      draft.rules.map((row) => [
        row.id,
        {
          condition: row.condition,
          // A blank impact goes as null: the server's message then says what it expects.
          score_impact: row.score_impact === '' ? (null as unknown as number) : row.score_impact,
          description: row.description,
        },
      ]),
    ),
  };
}

export type RuleErrors = Partial<Record<'id' | 'condition' | 'score_impact', string>>;

/** What the editor can tell about a rule row before asking the server (which compiles the CEL). */
export function ruleRowErrors(rows: readonly RuleRow[]): Map<string, RuleErrors> {
  const errors = new Map<string, RuleErrors>();
  const seen = new Map<string, number>();
  for (const row of rows) seen.set(row.id, (seen.get(row.id) ?? 0) + 1);
  for (const row of rows) {
    const found: RuleErrors = {};
    if (!RULE_ID.test(row.id)) found.id = 'rule ids are 1-64 letters, digits, _ . or -';
    else if ((seen.get(row.id) ?? 0) > 1) found.id = 'another rule has this id';
    if (row.condition.trim() === '') found.condition = 'a condition is required';
    if (row.score_impact === '') found.score_impact = 'a score impact is required';
    else if (
      !Number.isInteger(row.score_impact) ||
      row.score_impact < MIN_SCORE_IMPACT ||
      row.score_impact > MAX_SCORE_IMPACT
    ) {
      found.score_impact = `an integer from ${MIN_SCORE_IMPACT} to ${MAX_SCORE_IMPACT}`;
    }
    if (Object.keys(found).length > 0) errors.set(row.key, found);
  }
  return errors;
}

export interface FieldReset {
  field: PolicyField;
  /** How many entries the stored policy holds there now: what the save removes. */
  removes: number;
}

/** The fields a PUT of this draft resets to their default (`[]` or `{}`): every empty one. */
export function resetFields(draft: PolicyDraft, stored: Partial<PolicyDocument> | null): FieldReset[] {
  return POLICY_FIELDS.filter((field) =>
    field === 'custom_rules' ? draft.rules.length === 0 : draft.lists[field].length === 0,
  ).map((field) => ({
    field,
    removes: field === 'custom_rules' ? Object.keys(stored?.custom_rules ?? {}).length : (stored?.[field]?.length ?? 0),
  }));
}

/** Where a server issue belongs: `custom_rules.r1.condition` → the rule r1's condition; `blocked_actions.0` → that field. */
export function issueTarget(path: string): { field: PolicyField | null; ruleId?: string; part?: string } {
  const [head, ...rest] = path.split('.');
  const field = (POLICY_FIELDS as readonly string[]).includes(head) ? (head as PolicyField) : null;
  if (field !== 'custom_rules' || rest.length === 0) return { field };
  // A rule id may hold dots: the part, when there is one, is the last segment.
  const parts = ['condition', 'score_impact', 'description'];
  const last = rest[rest.length - 1];
  if (rest.length > 1 && parts.includes(last)) return { field, ruleId: rest.slice(0, -1).join('.'), part: last };
  return { field, ruleId: rest.join('.') };
}
