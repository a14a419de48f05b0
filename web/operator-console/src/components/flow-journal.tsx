import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { connectionText, JournalState } from '../domain/journal';
import { summaryOf } from '../domain/journal-text';
import { When } from './fields';

const STATUS_COLORS = { connecting: 'gray', live: 'green', reconnecting: 'orange', stopped: 'red' } as const;

/** The flow's journal as the stream delivers it, with the connection's state in a live region. */
export function FlowJournal({ journal }: { journal: JournalState }) {
  const { connection, entries } = journal;
  return (
    <Stack component="section" aria-labelledby="journal-title" gap="xs">
      <Group justify="space-between">
        <Title order={3} id="journal-title">
          Journal
        </Title>
        <Group gap={6} role="status" aria-live="polite" aria-label="Journal connection">
          <Badge color={STATUS_COLORS[connection.status]} variant="dot" tt="none" size="lg">
            {connectionText(connection)}
          </Badge>
        </Group>
      </Group>
      {connection.status === 'reconnecting' && (
        <Text size="xs" c="dimmed">
          Last failure: {connection.reason}
        </Text>
      )}
      <Paper withBorder p="xs">
        <Stack component="ol" aria-label="Flow journal" gap={6} m={0} pl="lg">
          {entries.map((entry) => (
            <li key={entry.id}>
              <Text size="sm" span fw={600}>
                {entry.type}
              </Text>
              <Text size="sm" span>
                {' '}
                — {summaryOf(entry)}
              </Text>
              <Text size="xs" c="dimmed">
                #{entry.id} · {entry.flowKind} · by {entry.actor || '—'} · <When at={entry.recordedAt} />
              </Text>
            </li>
          ))}
        </Stack>
        {entries.length === 0 && (
          <Text size="sm" c="dimmed">
            No event received yet.
          </Text>
        )}
      </Paper>
    </Stack>
  );
}
