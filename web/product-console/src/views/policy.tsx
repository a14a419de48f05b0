import { Alert, Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useApis } from '../api/api-context';
import { usePolicy } from '../api/policy';
import { PolicyEditor } from '../components/policy/policy-editor';
import { QueryState } from '../components/query-state';
import { formatTime } from '../domain/time';

export default function Policy() {
  const { sessionKeyError } = useApis();
  const policy = usePolicy();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Policy</Title>
        <Anchor component={Link} to="/policy/history">
          Policy history
        </Anchor>
      </Group>
      {sessionKeyError ? (
        <Alert color="red" title="The policy is unavailable">
          The console could not get its scoring-API key: {sessionKeyError.message}
        </Alert>
      ) : (
        <QueryState query={policy} what="the policy">
          {(stored) => (
            <Stack>
              <Text size="sm" c="dimmed">
                {stored
                  ? `Version ${stored.version}, saved ${formatTime(stored.updated_at)}.`
                  : 'No policy saved yet: events are scored under the empty policy.'}{' '}
                A save replaces the whole policy: a field left empty is reset to its default.
              </Text>
              {/* A newly saved version starts a new draft from what was stored. */}
              <PolicyEditor key={stored?.version ?? 0} stored={stored} />
            </Stack>
          )}
        </QueryState>
      )}
    </Stack>
  );
}
