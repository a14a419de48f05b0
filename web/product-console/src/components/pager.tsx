import { Button, Group, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { withParams } from '../domain/filters';

/**
 * Keyset paging kept in the URL: `cursor` is the page shown (absent: the first), "Next page" moves to
 * the answer's `next_cursor`. Keyset pages can only go forward, so the way back is the first page.
 */
export function KeysetPager({
  nextCursor,
  shown,
  label,
  busy = false,
}: {
  nextCursor: string | null;
  shown: number;
  label: string;
  /** A page is loading: the cursor shown belongs to the page before it. */
  busy?: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const onFirst = !params.get('cursor');
  return (
    <Group justify="space-between" role="navigation" aria-label={`${label} pages`}>
      <Text size="sm" c="dimmed">
        {onFirst ? 'First page' : 'A later page'}: {shown} {label.toLowerCase()} shown
        {nextCursor ? '' : ', the last page'}
      </Text>
      <Group>
        <Button variant="default" disabled={onFirst} onClick={() => setParams(withParams(params, { cursor: null }))}>
          First page
        </Button>
        <Button
          disabled={!nextCursor || busy}
          loading={busy}
          onClick={() => setParams(withParams(params, { cursor: nextCursor }))}
        >
          Next page
        </Button>
      </Group>
    </Group>
  );
}
