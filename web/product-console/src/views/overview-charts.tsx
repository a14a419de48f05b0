import '@mantine/charts/styles.css';
import { BarChart, BarsList } from '@mantine/charts';
import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { ReactNode } from 'react';
import type { EventStats } from '../api/types';
import { DECISION_COLOURS, DECISIONS, RISK_COLOURS, RISK_LEVELS } from '../domain/risk';
import { hourlySeries } from '../domain/stats';

// Light shades under dark text: every label stays readable whatever the bar's colour.
const ACTION_COLOURS = ['blue.3', 'cyan.3', 'grape.3', 'red.3', 'orange.3'];
const SHADE = 3;

/** A chart with its name; the figures it draws are in its accessible name too, since an SVG says nothing. */
function Figure({ title, summary, children }: { title: string; summary: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="figure" m={0} aria-label={`${title}: ${summary}`}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

const summarise = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ') || 'none';

export default function OverviewCharts({ stats }: { stats: EventStats }) {
  const hourly = hourlySeries(stats.window.since, stats.window.until, stats.hourly).map((h) => ({
    hour: h.hour.slice(11, 16),
    events: h.count,
  }));
  const actions = Object.entries(stats.by_action_type).map(([name, value], i) => ({
    name,
    value,
    color: ACTION_COLOURS[i % ACTION_COLOURS.length],
  }));
  const decisions = DECISIONS.map((d) => ({
    name: d,
    value: stats.by_decision[d] ?? 0,
    color: `${DECISION_COLOURS[d]}.${SHADE}`,
  }));
  const levels = [...RISK_LEVELS, 'unscored' as const].map((level) => ({
    level,
    events: stats.by_risk_level[level] ?? 0,
    color: level === 'unscored' ? 'gray.5' : `${RISK_COLOURS[level]}.${SHADE}`,
  }));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <Figure
        title="Events per hour (UTC)"
        summary={summarise(Object.fromEntries(hourly.map((h) => [h.hour, h.events])))}
      >
        {stats.total ? (
          <BarChart h={220} data={hourly} dataKey="hour" series={[{ name: 'events', color: 'blue.6' }]} />
        ) : (
          <Text c="dimmed">No events in the last 24 hours.</Text>
        )}
      </Figure>
      <Figure title="By action type" summary={summarise(stats.by_action_type)}>
        {actions.length ? (
          <BarsList data={actions} barsLabel="Action type" valueLabel="Events" barTextColor="black" />
        ) : (
          <Text c="dimmed">No events.</Text>
        )}
      </Figure>
      <Figure title="By decision" summary={summarise(stats.by_decision)}>
        <BarsList data={decisions} barsLabel="Decision" valueLabel="Events" barTextColor="black" />
      </Figure>
      <Figure title="By risk level" summary={summarise(Object.fromEntries(levels.map((l) => [l.level, l.events])))}>
        <BarsList
          data={levels.map((l) => ({ name: l.level, value: l.events, color: l.color }))}
          barsLabel="Level"
          valueLabel="Events"
          barTextColor="black"
        />
      </Figure>
      <Figure
        title="Top tools"
        summary={summarise(Object.fromEntries(stats.top_tools.map((t) => [t.tool_name, t.count])))}
      >
        {stats.top_tools.length ? (
          <BarsList
            data={stats.top_tools.map((t) => ({ name: t.tool_name, value: t.count, color: 'blue.3' }))}
            barsLabel="Tool"
            valueLabel="Events"
            barTextColor="black"
          />
        ) : (
          <Text c="dimmed">No tools used.</Text>
        )}
      </Figure>
    </SimpleGrid>
  );
}
