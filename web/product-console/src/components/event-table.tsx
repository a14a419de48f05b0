import { Anchor, Code, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { EventView } from '../api/types';
import { formatTime } from '../domain/time';
import { DecisionBadge, RiskBadge } from './badges';

const shortId = (id: string) => id.slice(0, 8);

/** Events as rows; the time links to the event's detail. */
export function EventTable({
  events,
  label,
  showSession = true,
}: {
  events: EventView[];
  label: string;
  showSession?: boolean;
}) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Tool</Table.Th>
            <Table.Th>Arguments</Table.Th>
            <Table.Th>Agent</Table.Th>
            {showSession && <Table.Th>Session</Table.Th>}
            <Table.Th>Risk</Table.Th>
            <Table.Th>Decision</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>
                <Anchor component={Link} to={`/events/${event.id}`}>
                  {formatTime(event.timestamp)}
                </Anchor>
              </Table.Td>
              <Table.Td>{event.action_type}</Table.Td>
              <Table.Td>{event.tool_name}</Table.Td>
              <Table.Td>
                <Code>{event.arguments.join(' ').slice(0, 120)}</Code>
              </Table.Td>
              <Table.Td>{event.agent_id}</Table.Td>
              {showSession && (
                <Table.Td>
                  {event.session_id && (
                    <Anchor component={Link} to={`/sessions/${event.session_id}`} title={event.session_id}>
                      {shortId(event.session_id)}
                    </Anchor>
                  )}
                </Table.Td>
              )}
              <Table.Td>
                <RiskBadge score={event.risk_score} />
              </Table.Td>
              <Table.Td>
                <DecisionBadge decision={event.decision} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {events.length === 0 && (
        <Text c="dimmed" p="md">
          No events match.
        </Text>
      )}
    </Table.ScrollContainer>
  );
}
