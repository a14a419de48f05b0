import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Waiting } from '../../../shared/start-console';
import { useEventStats } from '../api/events';
import { QueryState } from '../components/query-state';
import { Stat } from '../components/stat';
import { formatTime } from '../domain/time';

// recharts is the heaviest dependency: only this view loads it, after its figures.
const OverviewCharts = lazy(() => import('./overview-charts'));

export default function Overview() {
  const stats = useEventStats();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Overview</Title>
        <Text size="sm" c="dimmed">
          {stats.data ? `Updated ${formatTime(new Date(stats.dataUpdatedAt).toISOString())}` : ''}
        </Text>
      </Group>
      <QueryState query={stats} what="the last 24 hours">
        {(data) => (
          <Stack>
            <Text size="sm" c="dimmed">
              Events from {formatTime(data.window.since)} to {formatTime(data.window.until)} (whole UTC hours),
              refreshed every few seconds.
            </Text>
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Stat label="Events (24 h)">{data.total.toLocaleString()}</Stat>
              <Stat label="Blocked (24 h)">{(data.by_decision.block ?? 0).toLocaleString()}</Stat>
              <Stat label="Unscored">{data.by_risk_level.unscored.toLocaleString()}</Stat>
              <Stat label="Projection lag">
                {data.projection_lag.events.records_behind === null
                  ? 'unknown'
                  : `${data.projection_lag.events.records_behind.toLocaleString()} records`}
              </Stat>
            </SimpleGrid>
            <Suspense fallback={<Waiting label="Loading charts…" />}>
              <OverviewCharts stats={data} />
            </Suspense>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
