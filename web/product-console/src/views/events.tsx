import { Group, Paper, Stack, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { EventFilters, useEvents } from '../api/events';
import { EventExport } from '../components/event-export';
import { EventFilterForm } from '../components/event-filters';
import { EventTable } from '../components/event-table';
import { KeysetPager } from '../components/pager';
import { QueryState } from '../components/query-state';
import { EVENT_FILTERS, filtersFrom, withParams } from '../domain/filters';

export default function Events() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params, EVENT_FILTERS);
  const cursor = params.get('cursor');
  const events = useEvents(filters, cursor);
  const apply = (next: EventFilters) => setParams(withParams(new URLSearchParams(), { ...next }));
  return (
    <Stack>
      <Title order={2}>Events</Title>
      <Paper withBorder p="md">
        {/* A new URL (back, forward, a link) starts a new draft. */}
        <EventFilterForm key={params.toString()} applied={filters} onApply={apply} />
      </Paper>
      <Group justify="space-between" align="flex-start">
        <EventExport filters={filters} />
      </Group>
      <QueryState query={events} what="events">
        {(page) => (
          <Stack>
            <EventTable events={page.events} label="Events" />
            <KeysetPager
              nextCursor={page.next_cursor}
              shown={page.events.length}
              label="Events"
              busy={events.isPlaceholderData}
            />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
