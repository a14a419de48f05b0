import { Button, Checkbox, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { FormEvent, useState } from 'react';
import type { SessionFilters } from '../api/sessions';
import { filterErrors, SESSION_STATES } from '../domain/filters';
import { TimeWindow } from './time-window';

export function SessionFilterForm({
  applied,
  onApply,
}: {
  applied: SessionFilters;
  onApply: (filters: SessionFilters) => void;
}) {
  const [draft, setDraft] = useState<SessionFilters>(applied);
  const set = (key: keyof SessionFilters) => (value: string | null) =>
    setDraft((d) => ({ ...d, [key]: value ? value : undefined }));
  const errors = filterErrors(draft);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(errors).length === 0) onApply(draft);
  };
  return (
    <form onSubmit={submit} aria-label="Session filters">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <Select
            label="State"
            placeholder="Any"
            clearable
            data={[...SESSION_STATES]}
            value={draft.state ?? null}
            onChange={set('state')}
          />
          <TextInput
            label="Platform"
            value={draft.platform ?? ''}
            onChange={(e) => set('platform')(e.currentTarget.value)}
          />
          <TextInput
            label="Parent session id"
            value={draft.parent_id ?? ''}
            error={errors.parent_id}
            onChange={(e) => set('parent_id')(e.currentTarget.value)}
          />
          <Checkbox
            mt="xl"
            label="Root sessions only"
            checked={draft.root_only === 'true'}
            onChange={(e) => set('root_only')(e.currentTarget.checked ? 'true' : null)}
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
