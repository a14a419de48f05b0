import { Alert, Button, Center, Stack } from '@mantine/core';
import { ReactNode, useMemo } from 'react';
import { ApiError } from '../../../shared/api-client';
import { displayName, useAuth } from '../../../shared/auth';
import { Waiting } from '../../../shared/start-console';
import { ApiProvider, Apis } from '../api/api-context';
import { useCloudClient, useScoringClient } from '../api/cloud-client';
import { useTenant } from '../api/organization';
import { useSessionKey } from '../api/session-key';
import { CreateOrganization } from '../views/create-organization';

const status = (error: unknown) => (error instanceof ApiError ? error.status : null);

/**
 * Everything signed in goes through here: the caller's organization (none yet → the page that creates
 * one), then the session key for the scoring API, then the console.
 */
export function OrganizationGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const cloud = useCloudClient();
  const tenant = useTenant(cloud);
  const session = useSessionKey(cloud, displayName(user), tenant.isSuccess);
  const scoring = useScoringClient(() => session.held.current?.key ?? session.key?.key ?? null, session.renew);

  const apis = useMemo<Apis | null>(
    () =>
      tenant.data
        ? {
            cloud,
            scoring,
            customerId: tenant.data.id,
            sessionKeyId: session.key?.id ?? null,
            scoringHeader: { 'X-API-Key': session.key?.key ?? '' },
            sessionKeyError: session.error,
          }
        : null,
    [cloud, scoring, tenant.data, session.key, session.error],
  );

  if (status(tenant.error) === 404 || status(session.error) === 403) return <CreateOrganization cloud={cloud} />;
  if (tenant.error)
    return (
      <Center h="60vh">
        <Stack>
          <Alert color="red" title="The console could not load your organization">
            {tenant.error.message}
          </Alert>
          <Button onClick={() => void tenant.refetch()}>Try again</Button>
        </Stack>
      </Center>
    );
  if (!apis) return <Waiting label="Loading your organization…" />;
  return <ApiProvider value={apis}>{children}</ApiProvider>;
}
