import { ActionIcon, Button, Fieldset, Group, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { Issue } from '../../api/server-check';
import { issueTarget, MAX_SCORE_IMPACT, MIN_SCORE_IMPACT, RuleErrors, RuleRow } from '../../domain/policy';

/** The server's issues about the rule with this id, by part (`id` for the rule as a whole). */
function serverErrorsOf(issues: Issue[], id: string): RuleErrors {
  const errors: RuleErrors = {};
  for (const issue of issues) {
    const target = issueTarget(issue.path);
    if (target.ruleId !== id) continue;
    const part = (target.part ?? 'id') as keyof RuleErrors;
    if (part === 'id' || part === 'condition' || part === 'score_impact') errors[part] ??= issue.message;
  }
  return errors;
}

export function CustomRulesField({
  rules,
  clientErrors,
  serverIssues,
  onChange,
  newKey,
}: {
  rules: RuleRow[];
  clientErrors: Map<string, RuleErrors>;
  serverIssues: Issue[];
  onChange: (rules: RuleRow[]) => void;
  newKey: () => string;
}) {
  const update = (key: string, change: Partial<RuleRow>) =>
    onChange(rules.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <Stack gap="sm">
      <Text fw={500}>Custom rules</Text>
      <Text size="sm" c="dimmed">
        A CEL condition over action, domain, scope, verb, action_type, tool, arguments, decision, session_id and flags,
        e.g. <code>tool == "git" &amp;&amp; "--force" in arguments</code>; the score impact is added when it holds.
      </Text>
      {rules.length === 0 && <Text size="sm">No custom rule.</Text>}
      {rules.map((row, index) => {
        const local = clientErrors.get(row.key) ?? {};
        const server = serverErrorsOf(serverIssues, row.id);
        const name = `Rule ${index + 1}`;
        return (
          <Fieldset key={row.key} legend={name}>
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label="Rule id"
                required
                value={row.id}
                error={local.id ?? server.id}
                onChange={(e) => update(row.key, { id: e.currentTarget.value })}
              />
              <NumberInput
                label="Score impact"
                required
                min={MIN_SCORE_IMPACT}
                max={MAX_SCORE_IMPACT}
                allowDecimal={false}
                value={row.score_impact}
                error={local.score_impact ?? server.score_impact}
                onChange={(value) => update(row.key, { score_impact: value === '' ? '' : Number(value) })}
              />
              <TextInput
                label="Description"
                style={{ flex: 1, minWidth: 200 }}
                value={row.description}
                onChange={(e) => update(row.key, { description: e.currentTarget.value })}
              />
              <ActionIcon
                mt={26}
                color="red"
                variant="subtle"
                aria-label={`Remove rule ${index + 1}${row.id ? ` (${row.id})` : ''}`}
                onClick={() => onChange(rules.filter((r) => r.key !== row.key))}
              >
                ✕
              </ActionIcon>
            </Group>
            <Textarea
              mt="xs"
              label="Condition (CEL)"
              required
              autosize
              minRows={1}
              styles={{ input: { fontFamily: 'monospace' } }}
              value={row.condition}
              error={local.condition ?? server.condition}
              onChange={(e) => update(row.key, { condition: e.currentTarget.value })}
            />
          </Fieldset>
        );
      })}
      <Group>
        <Button
          variant="light"
          onClick={() =>
            onChange([
              ...rules,
              { key: newKey(), id: `rule_${rules.length + 1}`, condition: '', score_impact: 10, description: '' },
            ])
          }
        >
          Add rule
        </Button>
      </Group>
    </Stack>
  );
}
