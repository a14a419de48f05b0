import { Alert, Anchor, Code, Paper, Stack, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useApis } from '../api/api-context';
import { useEvent } from '../api/events';
import { useJustification, useScore } from '../api/scores';
import { DecisionBadge, RiskBadge } from '../components/badges';
import { FieldList } from '../components/field-list';
import { JustificationReport } from '../components/justification-report';
import { QueryState } from '../components/query-state';
import { ScoreDetailPanel } from '../components/score-detail';
import { formatTime } from '../domain/time';

function ScoreSections({ eventId }: { eventId: string }) {
  const { sessionKeyError } = useApis();
  const score = useScore(eventId);
  const justification = useJustification(eventId, score.data?.status === 'scored');
  if (sessionKeyError)
    return (
      <Alert color="red" title="Scores are unavailable">
        The console could not get its scoring-API key: {sessionKeyError.message}
      </Alert>
    );
  return (
    <>
      <Paper withBorder p="md" component="section" aria-labelledby="score-detail">
        <Title order={3} id="score-detail" mb="sm">
          Score detail
        </Title>
        <QueryState query={score} what="the score">
          {(detail) => <ScoreDetailPanel score={detail} />}
        </QueryState>
      </Paper>
      {score.data?.status === 'scored' && (
        <Paper withBorder p="md" component="section" aria-labelledby="justification">
          <Title order={3} id="justification" mb="sm">
            Justification report
          </Title>
          <QueryState query={justification} what="the justification report">
            {(report) => <JustificationReport report={report} />}
          </QueryState>
        </Paper>
      )}
    </>
  );
}

export default function Event() {
  const { id = '' } = useParams();
  const event = useEvent(id);
  return (
    <Stack>
      <Title order={2}>Event</Title>
      <QueryState query={event} what="the event">
        {(e) => (
          <FieldList
            label="Event"
            fields={[
              ['Id', <Code key="id">{e.id}</Code>],
              ['Time', formatTime(e.timestamp)],
              ['Action type', e.action_type],
              ['Tool', e.tool_name],
              ['Arguments', <Code key="a">{JSON.stringify(e.arguments)}</Code>],
              [
                'Agent',
                e.agent_id && (
                  <Anchor component={Link} to={`/events?agent_id=${encodeURIComponent(e.agent_id)}`}>
                    {e.agent_id}
                  </Anchor>
                ),
              ],
              [
                'Session',
                e.session_id && (
                  <Anchor component={Link} to={`/sessions/${e.session_id}`}>
                    {e.session_id}
                  </Anchor>
                ),
              ],
              ['Machine', e.machine_id],
              ['Risk', <RiskBadge key="r" score={e.risk_score} />],
              ['Decision', <DecisionBadge key="d" decision={e.decision} />],
              ['Received', formatTime(e.received_at)],
              ['Scored', formatTime(e.scored_at) || 'not yet'],
            ]}
          />
        )}
      </QueryState>
      <ScoreSections eventId={id} />
    </Stack>
  );
}
