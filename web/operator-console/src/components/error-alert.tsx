import { Alert, Button, Text } from '@mantine/core';
import { ApiError } from '../../../shared/api-client';
import { useAuth } from '../../../shared/auth';
import { needsSignIn } from '../api/client';

/** A refusal of the control plane as it answered it, `{error, detail}` and the status; anything else as text. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  const { signIn } = useAuth();
  if (!error) return null;
  if (error instanceof ApiError) {
    return (
      <Alert color="red" role="alert" title={title ?? `Refused (${error.status} ${error.body.error})`}>
        <Text size="sm">{error.body.detail ?? error.body.error}</Text>
        {needsSignIn(error) && (
          <Button mt="xs" size="xs" variant="light" onClick={() => void signIn()}>
            Sign in again
          </Button>
        )}
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert" title={title ?? 'Something went wrong'}>
      <Text size="sm">{error instanceof Error ? error.message : String(error)}</Text>
    </Alert>
  );
}
