import { Anchor, Code, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useSession } from '../api/sessions';
import { RiskBadge, StateBadge } from '../components/badges';
import { EventTimeline } from '../components/event-timeline';
import { FieldList } from '../components/field-list';
import { QueryState } from '../components/query-state';
import { SessionTree } from '../components/session-tree';
import { Stat } from '../components/stat';
import { formatTime } from '../domain/time';

export default function Session() {
  const { id = '' } = useParams();
  const session = useSession(id);
  return (
    <Stack>
      <Title order={2}>Session</Title>
      <QueryState query={session} what="the session">
        {(s) => (
          <Stack>
            <FieldList
              label="Session"
              fields={[
                ['Id', <Code key="id">{s.id}</Code>],
                ['Name', s.session_name],
                ['State', <StateBadge key="s" state={s.state} />],
                ['Platform', s.platform],
                ['Model', s.model],
                ['Signing id', s.signing_id],
                ['Started', formatTime(s.started_at)],
                ['Ended', formatTime(s.ended_at) || 'not ended'],
                [
                  'Events',
                  <Anchor key="e" component={Link} to={`/events?session_id=${s.id}`}>
                    Explore this session's events
                  </Anchor>,
                ],
              ]}
            />
            <section aria-labelledby="risk-summary">
              <Title order={3} id="risk-summary" mb="sm">
                Risk summary
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }} maw={900}>
                <Stat label="Total events">{s.risk_summary.total_events}</Stat>
                <Stat label="Maximum risk">
                  <RiskBadge score={s.risk_summary.max_risk} />
                </Stat>
                <Stat label="Average risk">{s.risk_summary.avg_risk}</Stat>
              </SimpleGrid>
            </section>
            <Paper withBorder p="md" component="section" aria-labelledby="session-tree">
              <Title order={3} id="session-tree" mb="sm">
                Parent and children
              </Title>
              <SessionTree session={s} />
            </Paper>
            <Paper withBorder p="md" component="section" aria-labelledby="timeline">
              <Title order={3} id="timeline" mb="sm">
                Timeline
              </Title>
              <EventTimeline sessionId={s.id} />
            </Paper>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
