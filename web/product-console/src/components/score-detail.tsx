import { Alert, Badge, Group, List, Progress, Stack, Table, Text, Title } from '@mantine/core';
import type { ScoreDetail } from '../api/types';
import { formatTime } from '../domain/time';
import { RiskBadge } from './badges';
import { FieldList } from './field-list';

type Scored = Exclude<ScoreDetail, { status: 'pending' }>;

const modelUse = (score: Scored) => {
  if (score.llm_score !== null) return `yes: the model scored ${score.llm_score}`;
  if (score.llm_fallback) return 'called, but it failed or timed out: the graph score stands';
  return 'no';
};

function Components({ components }: { components: ScoreDetail['score_components'] }) {
  if (components.length === 0) return <Text c="dimmed">No rule matched.</Text>;
  const widest = Math.max(...components.map((c) => Math.abs(c.contribution)), 1);
  return (
    <Table aria-label="Score components" maw={900}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Rule</Table.Th>
          <Table.Th>Contribution</Table.Th>
          <Table.Th w="40%">Share</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {components.map((c) => (
          <Table.Tr key={c.rule}>
            <Table.Td>{c.rule}</Table.Td>
            <Table.Td>{c.contribution >= 0 ? `+${c.contribution}` : c.contribution}</Table.Td>
            <Table.Td>
              <Progress
                value={(Math.abs(c.contribution) / widest) * 100}
                color={c.contribution >= 0 ? 'red' : 'green'}
                aria-hidden
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const badges = (values: string[], color: string) =>
  values.length ? (
    <Group gap={4}>
      {values.map((v) => (
        <Badge key={v} color={color} variant="light">
          {v}
        </Badge>
      ))}
    </Group>
  ) : (
    'none'
  );

/** The scoring API's detail of one event's score; a pending score says so and nothing more. */
export function ScoreDetailPanel({ score }: { score: ScoreDetail }) {
  if (score.status === 'pending')
    return (
      <Alert color="blue" title="Score pending" role="status">
        {score.reasoning} This page updates once it is scored.
      </Alert>
    );
  return (
    <Stack>
      {score.status === 'failed' && (
        <Alert color="red" title="Scoring failed">
          {score.failure_reason}
        </Alert>
      )}
      <FieldList
        label="Score"
        fields={[
          ['Score', <RiskBadge key="s" score={score.score} />],
          ['Risk level', score.risk_level],
          ['Status', score.status],
          ['Reasoning', score.reasoning],
          ['Violations', badges(score.violations, 'red')],
          ['Scoring source', score.scoring_source],
          ['Confidence', score.confidence],
          ['Language model used', modelUse(score)],
          ['Rule score / graph score', `${score.rule_score ?? '—'} / ${score.graph_score ?? '—'}`],
          ['Compliance references', badges(score.compliance_refs, 'violet')],
          ['Behavioral flags', badges(score.behavioral_flags, 'gray')],
          ['Policy version', score.policy_version],
          ['Scorer version', score.scorer_version],
          ['Scored at', formatTime(score.scored_at)],
        ]}
      />
      <Title order={4}>Score components</Title>
      <Components components={score.score_components} />
      <Title order={4}>Mitigations</Title>
      {score.mitigations.length ? (
        <List>
          {score.mitigations.map((m) => (
            <List.Item key={m}>{m}</List.Item>
          ))}
        </List>
      ) : (
        <Text c="dimmed">None.</Text>
      )}
    </Stack>
  );
}
