import { Button, Group, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { FormEvent, useState } from 'react';
import type { EventFilters } from '../api/events';
import { ACTION_TYPES, filterErrors } from '../domain/filters';
import { DECISIONS } from '../domain/risk';
import { TimeWindow } from './time-window';

/** The explorer's filter form: edits a draft, applies it to the URL on submit (so it is a link to share). */
export function EventFilterForm({
  applied,
  onApply,
}: {
  applied: EventFilters;
  onApply: (filters: EventFilters) => void;
}) {
  const [draft, setDraft] = useState<EventFilters>(applied);
  const set = (key: keyof EventFilters) => (value: string | number | null) =>
    setDraft((d) => ({ ...d, [key]: value === null || value === '' ? undefined : String(value) }));
  const errors = filterErrors(draft);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(errors).length === 0) onApply(draft);
  };
  return (
    <form onSubmit={submit} aria-label="Event filters">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <TextInput
            label="Agent"
            value={draft.agent_id ?? ''}
            onChange={(e) => set('agent_id')(e.currentTarget.value)}
          />
          <TextInput
            label="Session id"
            value={draft.session_id ?? ''}
            error={errors.session_id}
            onChange={(e) => set('session_id')(e.currentTarget.value)}
          />
          <Select
            label="Action type"
            placeholder="Any"
            clearable
            data={[...ACTION_TYPES]}
            value={draft.action_type ?? null}
            onChange={set('action_type')}
          />
          <TextInput
            label="Tool"
            value={draft.tool_name ?? ''}
            onChange={(e) => set('tool_name')(e.currentTarget.value)}
          />
          <NumberInput
            label="Minimum risk"
            min={0}
            max={100}
            allowDecimal={false}
            value={draft.min_risk ?? ''}
            error={errors.min_risk}
            onChange={set('min_risk')}
          />
          <NumberInput
            label="Maximum risk"
            min={0}
            max={100}
            allowDecimal={false}
            value={draft.max_risk ?? ''}
            error={errors.max_risk}
            onChange={set('max_risk')}
          />
          <Select
            label="Decision"
            placeholder="Any"
            clearable
            data={[...DECISIONS]}
            value={draft.decision ?? null}
            onChange={set('decision')}
          />
        </SimpleGrid>
        <TimeWindow
          since={draft.since}
          until={draft.end_time}
          errors={errors}
          onChange={(since, until) => setDraft((d) => ({ ...d, since, end_time: until }))}
        />
        <Group>
          <Button type="submit">Apply filters</Button>
          <Button variant="default" onClick={() => onApply({})}>
            Clear filters
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
