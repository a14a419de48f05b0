import { Anchor, Button, Code, Group, Text, Timeline } from '@mantine/core';
import { Link } from 'react-router';
import { useSessionTimeline } from '../api/sessions';
import { RISK_COLOURS, riskLevel } from '../domain/risk';
import { formatTime } from '../domain/time';
import { DecisionBadge, RiskBadge } from './badges';

/** The session's events in timestamp order, each bullet in its risk colour, each linking to its detail. */
export function EventTimeline({ sessionId }: { sessionId: string }) {
  const timeline = useSessionTimeline(sessionId);
  if (timeline.isPending) return <Text role="status">Loading the timeline…</Text>;
  if (timeline.error)
    return (
      <Text c="red" role="alert">
        The timeline did not load: {timeline.error.message}
      </Text>
    );
  const events = timeline.data.pages.flatMap((page) => page.events);
  if (events.length === 0) return <Text c="dimmed">No events in this session.</Text>;
  return (
    <>
      <Timeline bulletSize={16} lineWidth={2} active={events.length}>
        {events.map((event) => (
          <Timeline.Item
            key={event.id}
            color={RISK_COLOURS[riskLevel(event.risk_score) ?? 'unscored']}
            title={
              <Group gap="xs">
                <Anchor component={Link} to={`/events/${event.id}`}>
                  {formatTime(event.timestamp)} {event.action_type}
                </Anchor>
                <RiskBadge score={event.risk_score} />
                <DecisionBadge decision={event.decision} />
              </Group>
            }
          >
            <Text size="sm">
              {event.tool_name} <Code>{event.arguments.join(' ').slice(0, 200)}</Code>
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
      {timeline.hasNextPage && (
        <Button
          mt="md"
          variant="default"
          loading={timeline.isFetchingNextPage}
          onClick={() => void timeline.fetchNextPage()}
        >
          Load more events
        </Button>
      )}
    </>
  );
}
