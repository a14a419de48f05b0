import { Alert, Button, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ReactNode } from 'react';
import { Waiting } from '../../../shared/start-console';
import { describeError } from '../api/errors';

/** A query's data, or its loading state (role=status), or its error (role=alert) with a retry. */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return children(query.data);
  if (query.error)
    return (
      <Stack align="flex-start">
        <Alert color="red" title={`Could not load ${what}`}>
          {describeError(query.error)}
        </Alert>
        <Button variant="default" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  return <Waiting label={`Loading ${what}…`} />;
}
