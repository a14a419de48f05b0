import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useApis } from '../api/api-context';
import { usePolicyVersions } from '../api/policy';
import type { PolicyVersion } from '../api/types';
import { VersionDiff } from '../components/policy/version-diff';
import { QueryState } from '../components/query-state';
import { diffPolicies } from '../domain/policy-diff';
import { formatTime } from '../domain/time';

function History({ versions }: { versions: PolicyVersion[] }) {
  const [params, setParams] = useSearchParams();
  if (versions.length === 0) return <Text>No policy has been saved yet.</Text>;
  // Newest first: the one before a version is the next entry.
  const chosen = Math.max(
    0,
    versions.findIndex((v) => String(v.version) === params.get('version')),
  );
  const version = versions[chosen];
  const previous = versions[chosen + 1] ?? null;
  return (
    <Stack>
      <Table striped aria-label="Policy versions" maw={700}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Version</Table.Th>
            <Table.Th>Saved</Table.Th>
            <Table.Th>Fields changed</Table.Th>
            <Table.Th>Changes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {versions.map((v, i) => (
            <Table.Tr
              key={v.version}
              aria-current={i === chosen ? 'true' : undefined}
              fw={i === chosen ? 700 : undefined}
            >
              <Table.Td>{v.version}</Table.Td>
              <Table.Td>{formatTime(v.updated_at)}</Table.Td>
              <Table.Td>{diffPolicies(versions[i + 1]?.policies ?? null, v.policies).length}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant={i === chosen ? 'filled' : 'light'}
                  aria-label={`Show changes of version ${v.version}`}
                  onClick={() => setParams({ version: String(v.version) })}
                >
                  Show changes
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Paper withBorder p="md" component="section" aria-labelledby="version-diff">
        <Title order={3} id="version-diff" mb="sm">
          {previous
            ? `Version ${version.version} against version ${previous.version}`
            : `Version ${version.version}, the first`}
        </Title>
        <VersionDiff
          label={`Changes of version ${version.version}`}
          diffs={diffPolicies(previous?.policies ?? null, version.policies)}
        />
      </Paper>
    </Stack>
  );
}

export default function PolicyHistory() {
  const { sessionKeyError } = useApis();
  const versions = usePolicyVersions();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Policy history</Title>
        <Anchor component={Link} to="/policy">
          Edit the policy
        </Anchor>
      </Group>
      {sessionKeyError ? (
        <Alert color="red" title="The policy history is unavailable">
          The console could not get its scoring-API key: {sessionKeyError.message}
        </Alert>
      ) : (
        <QueryState query={versions} what="the policy versions">
          {(data) => <History versions={data.versions} />}
        </QueryState>
      )}
    </Stack>
  );
}
