import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useRef, useState } from 'react';
import { useSavePolicy } from '../../api/policy';
import { Issue, ServerCheck, useServerCheck } from '../../api/server-check';
import type { PolicyWrapper } from '../../api/types';
import { patternListErrors } from '../../domain/pattern';
import {
  documentOf,
  draftOf,
  issueTarget,
  LIST_FIELDS,
  PATTERN_FIELDS,
  PolicyDraft,
  PolicyField,
  resetFields,
  ruleRowErrors,
} from '../../domain/policy';
import { CustomRulesField } from './custom-rules-field';
import { ListFieldInput } from './list-field';
import { SaveConfirmation } from './save-confirmation';

const issuesOf = (check: ServerCheck, field: PolicyField | null): Issue[] =>
  check.state === 'invalid' ? check.issues.filter((issue) => issueTarget(issue.path).field === field) : [];

function CheckStatus({ check, localProblems }: { check: ServerCheck; localProblems: boolean }) {
  const text = {
    idle: '',
    checking: 'Checking the draft with the server…',
    valid: 'The server would accept this policy.',
    invalid: `The server would refuse this policy: ${check.state === 'invalid' ? check.error : ''}. See the marked fields.`,
    unavailable: `The server could not check the draft: ${check.state === 'unavailable' ? check.error : ''}`,
  }[check.state];
  const colour = check.state === 'valid' && !localProblems ? 'teal' : check.state === 'checking' ? 'dimmed' : 'red';
  return (
    <Text size="sm" c={colour} role="status" aria-live="polite">
      {localProblems && check.state !== 'checking' ? 'Some entries need fixing (marked below). ' : ''}
      {text}
    </Text>
  );
}

/** The seven fields of one stored version (or none), edited as a draft and saved whole. */
export function PolicyEditor({ stored }: { stored: PolicyWrapper | null }) {
  const counter = useRef(0);
  const newKey = () => `rule-${++counter.current}`;
  const [draft, setDraft] = useState<PolicyDraft>(() => draftOf(stored?.policies ?? null, newKey));
  const [confirming, setConfirming] = useState(false);
  const save = useSavePolicy();

  const document = useMemo(() => documentOf(draft), [draft]);
  const check = useServerCheck(document);
  const ruleErrors = useMemo(() => ruleRowErrors(draft.rules), [draft.rules]);
  const localProblems =
    ruleErrors.size > 0 || PATTERN_FIELDS.some((field) => patternListErrors(draft.lists[field]).length > 0);
  const unplaced = issuesOf(check, null);

  const confirm = () =>
    save.mutate(document, {
      onSuccess: (saved) => {
        setConfirming(false);
        notifications.show({ color: 'green', message: `Policy saved as version ${saved.version}` });
      },
    });

  return (
    <Stack>
      {LIST_FIELDS.map((field) => (
        <ListFieldInput
          key={field}
          field={field}
          values={draft.lists[field]}
          serverIssues={issuesOf(check, field)}
          onChange={(values) => setDraft((d) => ({ ...d, lists: { ...d.lists, [field]: values } }))}
        />
      ))}
      <Paper withBorder p="md">
        <CustomRulesField
          rules={draft.rules}
          clientErrors={ruleErrors}
          serverIssues={issuesOf(check, 'custom_rules')}
          onChange={(rules) => setDraft((d) => ({ ...d, rules }))}
          newKey={newKey}
        />
      </Paper>
      {unplaced.length > 0 && (
        <Alert color="red" title="The server refuses">
          {unplaced.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}
        </Alert>
      )}
      <CheckStatus check={check} localProblems={localProblems} />
      <Group>
        <Button
          color="orange"
          disabled={localProblems || check.state === 'invalid'}
          onClick={() => {
            save.reset();
            setConfirming(true);
          }}
        >
          Save (replaces the whole policy)
        </Button>
        <Button variant="default" onClick={() => setDraft(draftOf(stored?.policies ?? null, newKey))}>
          Discard changes
        </Button>
      </Group>
      <SaveConfirmation
        opened={confirming}
        resets={resetFields(draft, stored?.policies ?? null)}
        version={stored?.version ?? null}
        busy={save.isPending}
        error={save.error}
        onConfirm={confirm}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
