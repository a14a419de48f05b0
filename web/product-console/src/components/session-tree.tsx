import { Button, Group, List, Text } from '@mantine/core';
import { useState } from 'react';
import { useSessionChildren } from '../api/sessions';
import type { SessionDetail, SessionView } from '../api/types';
import { StateBadge } from './badges';
import { SessionLink } from './session-link';

function ChildNode({ session }: { session: SessionView }) {
  const [open, setOpen] = useState(false);
  const children = useSessionChildren(session.id, open);
  return (
    <List.Item>
      <Group gap="xs">
        <SessionLink id={session.id} name={session.session_name} />
        <StateBadge state={session.state} />
        <Button
          size="compact-xs"
          variant="subtle"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          aria-label={`${open ? 'Hide' : 'Show'} children of ${session.session_name || session.id.slice(0, 8)}`}
        >
          {open ? 'Hide children' : 'Show children'}
        </Button>
      </Group>
      {open && children.isPending && <Text size="sm">Loading…</Text>}
      {open && children.error && (
        <Text size="sm" c="red" role="alert">
          {children.error.message}
        </Text>
      )}
      {open && children.data && <ChildList sessions={children.data.children} />}
    </List.Item>
  );
}

function ChildList({ sessions }: { sessions: SessionView[] }) {
  if (sessions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No child sessions.
      </Text>
    );
  return (
    <List withPadding listStyleType="disc">
      {sessions.map((child) => (
        <ChildNode key={child.id} session={child} />
      ))}
    </List>
  );
}

/** The session in its family: its parent (a link), itself, its children (each expandable to theirs). */
export function SessionTree({ session }: { session: SessionDetail }) {
  const self = (
    <List.Item>
      <Text span fw={700}>
        {session.session_name || session.id.slice(0, 8)} (this session)
      </Text>
      <ChildList sessions={session.children} />
    </List.Item>
  );
  return (
    <nav aria-label="Session tree">
      {session.parent_id ? (
        <List listStyleType="none">
          <List.Item>
            Parent: <SessionLink id={session.parent_id} />
            <List withPadding listStyleType="none">
              {self}
            </List>
          </List.Item>
        </List>
      ) : (
        <List listStyleType="none">{self}</List>
      )}
    </nav>
  );
}
