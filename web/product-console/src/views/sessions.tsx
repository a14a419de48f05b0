import { Anchor, Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { SessionFilters, useSessions } from '../api/sessions';
import type { SessionView } from '../api/types';
import { StateBadge } from '../components/badges';
import { KeysetPager } from '../components/pager';
import { QueryState } from '../components/query-state';
import { SessionFilterForm } from '../components/session-filters';
import { SessionLink } from '../components/session-link';
import { filtersFrom, SESSION_FILTERS, withParams } from '../domain/filters';
import { formatTime } from '../domain/time';

function SessionTable({ sessions }: { sessions: SessionView[] }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped highlightOnHover aria-label="Sessions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Session</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Platform</Table.Th>
            <Table.Th>Model</Table.Th>
            <Table.Th>Parent</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Ended</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sessions.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>
                <SessionLink id={s.id} name={s.session_name} />
              </Table.Td>
              <Table.Td>
                <StateBadge state={s.state} />
              </Table.Td>
              <Table.Td>{s.platform}</Table.Td>
              <Table.Td>{s.model}</Table.Td>
              <Table.Td>
                {s.parent_id ? (
                  <Anchor component={Link} to={`/sessions/${s.parent_id}`} title={s.parent_id}>
                    child of {s.parent_id.slice(0, 8)}
                  </Anchor>
                ) : (
                  <Badge variant="outline" color="gray">
                    root
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{formatTime(s.started_at)}</Table.Td>
              <Table.Td>{formatTime(s.ended_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {sessions.length === 0 && (
        <Text c="dimmed" p="md">
          No sessions match.
        </Text>
      )}
    </Table.ScrollContainer>
  );
}

export default function Sessions() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params, SESSION_FILTERS);
  const sessions = useSessions(filters, params.get('cursor'));
  const apply = (next: SessionFilters) => setParams(withParams(new URLSearchParams(), { ...next }));
  return (
    <Stack>
      <Title order={2}>Sessions</Title>
      <Paper withBorder p="md">
        <SessionFilterForm key={params.toString()} applied={filters} onApply={apply} />
      </Paper>
      <QueryState query={sessions} what="sessions">
        {(page) => (
          <Stack>
            <SessionTable sessions={page.sessions} />
            <KeysetPager
              nextCursor={page.next_cursor}
              shown={page.sessions.length}
              label="Sessions"
              busy={sessions.isPlaceholderData}
            />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
