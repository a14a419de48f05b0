import { TagsInput } from '@mantine/core';
import type { Issue } from '../../api/server-check';
import { patternListErrors } from '../../domain/pattern';
import { FIELD_LABELS, ListField, PATTERN_FIELDS } from '../../domain/policy';

const HELP: Record<ListField, string> = {
  sensitive_fields: 'Field names whose access raises the score (named in a scope or an argument).',
  allowed_tools: 'MCP tools agents may use (server.tool or tool); when set, unlisted MCP tools are flagged.',
  blocked_actions: 'Prohibited actions, each domain:scope:verb (e.g. file:/etc/shadow:read).',
  allowed_action_patterns: 'Pre-approved actions, domain:scope:verb with * as a wildcard (e.g. file:/tmp/*:write).',
  blocked_action_patterns: 'Prohibited actions, domain:scope:verb with * as a wildcard (e.g. network:*:connect).',
  sensitive_classifications: 'Data classification labels whose access raises the score.',
};

/** `blocked_actions.2` → `Entry 3 ("x"): message`, so a server issue names the value it is about. */
function serverMessage(issue: Issue, values: string[]): string {
  const index = Number(issue.path.split('.')[1]);
  if (Number.isInteger(index) && values[index] !== undefined) return `"${values[index]}" ${issue.message}`;
  return issue.message;
}

/** One list field as tags; patterns are checked at once here, everything again by the server. */
export function ListFieldInput({
  field,
  values,
  serverIssues,
  onChange,
}: {
  field: ListField;
  values: string[];
  serverIssues: Issue[];
  onChange: (values: string[]) => void;
}) {
  const local = PATTERN_FIELDS.includes(field) ? patternListErrors(values) : [];
  const messages = local.length ? local : serverIssues.map((issue) => serverMessage(issue, values));
  return (
    <TagsInput
      label={FIELD_LABELS[field]}
      description={HELP[field]}
      placeholder="Type a value and press Enter"
      value={values}
      onChange={onChange}
      clearable
      error={messages.length ? messages.join('; ') : undefined}
    />
  );
}
