import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useAgents } from '../api/credentials';
import { KeysetPager } from '../components/pager';
import { QueryState } from '../components/query-state';
import { formatTime } from '../domain/time';

export default function Agents() {
  const [params] = useSearchParams();
  const agents = useAgents(params.get('cursor'));
  return (
    <Stack>
      <Title order={2}>Agents</Title>
      <QueryState query={agents} what="agents">
        {(page) => (
          <Stack>
            <Table.ScrollContainer minWidth={700}>
              <Table striped aria-label="Agents">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Agent</Table.Th>
                    <Table.Th>Platform</Table.Th>
                    <Table.Th>Signing id</Table.Th>
                    <Table.Th>First seen</Table.Th>
                    <Table.Th>Last seen</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.agents.map((agent) => (
                    <Table.Tr key={agent.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/events?agent_id=${encodeURIComponent(agent.id)}`}>
                          {agent.id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{agent.platform}</Table.Td>
                      <Table.Td>{agent.signing_id}</Table.Td>
                      <Table.Td>{formatTime(agent.first_seen)}</Table.Td>
                      <Table.Td>{formatTime(agent.last_seen)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {page.agents.length === 0 && (
                <Text c="dimmed" p="md">
                  No agent has been seen yet.
                </Text>
              )}
            </Table.ScrollContainer>
            <KeysetPager nextCursor={page.next_cursor} shown={page.agents.length} label="Agents" />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
