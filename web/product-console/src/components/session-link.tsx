import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/** A session by its name (or the start of its id), linking to its page. */
export function SessionLink({ id, name }: { id: string; name?: string | null }) {
  return (
    <Anchor component={Link} to={`/sessions/${id}`} title={id}>
      {name || id.slice(0, 8)}
    </Anchor>
  );
}
