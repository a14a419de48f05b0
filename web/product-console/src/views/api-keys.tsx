import { Alert, Badge, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useApis } from '../api/api-context';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/credentials';
import { SESSION_KEY_PREFIX } from '../api/session-key';
import type { ApiKeyView } from '../api/types';
import { ConfirmModal } from '../components/confirm-modal';
import { CreateForm } from '../components/create-form';
import { CredentialStatus } from '../components/credential-status';
import { QueryState } from '../components/query-state';
import { RevokeButton } from '../components/revoke-button';
import { SecretModal } from '../components/secret-modal';
import { formatTime } from '../domain/time';

function KeyName({ apiKey, current }: { apiKey: ApiKeyView; current: boolean }) {
  return (
    <Group gap="xs">
      <span>{apiKey.name}</span>
      {apiKey.name.startsWith(SESSION_KEY_PREFIX) && (
        <Badge variant="outline" color="grape">
          console session
        </Badge>
      )}
      {current && <Badge color="grape">this session</Badge>}
    </Group>
  );
}

export default function ApiKeys() {
  const { sessionKeyId } = useApis();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);

  const confirmRevoke = () =>
    revoking &&
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `API key ${revoking.name} revoked` });
        setRevoking(null);
      },
    });

  return (
    <Stack>
      <Title order={2}>API keys</Title>
      <Text>
        Scoring-API keys (sent as <code>X-API-Key</code>) read this organization's scores and manage its policy. This
        console makes a one-hour key for each sign-in, revoked at sign-out: those are marked "console session".
      </Text>
      <Paper withBorder p="md">
        <CreateForm
          label="Key name"
          action="Create API key"
          busy={create.isPending}
          error={create.error}
          onCreate={(name, reset) =>
            create.mutate(name, {
              onSuccess: (created) => {
                reset();
                setSecret(created.key);
              },
            })
          }
        />
      </Paper>
      <SecretModal title="API key created" what="API key" secret={secret} onClose={() => setSecret(null)} />
      <QueryState query={keys} what="API keys">
        {({ api_keys }) => (
          <Table.ScrollContainer minWidth={800}>
            <Table striped aria-label="API keys">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Prefix</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {api_keys.map((key) => (
                  <Table.Tr key={key.id}>
                    <Table.Td>
                      <KeyName apiKey={key} current={key.id === sessionKeyId} />
                    </Table.Td>
                    <Table.Td>{key.prefix}…</Table.Td>
                    <Table.Td>{formatTime(key.created_at)}</Table.Td>
                    <Table.Td>{formatTime(key.expires_at) || 'never'}</Table.Td>
                    <Table.Td>
                      <CredentialStatus revokedAt={key.revoked_at} expiresAt={key.expires_at} />
                    </Table.Td>
                    <Table.Td>
                      {!key.revoked_at && (
                        <RevokeButton
                          what={`API key ${key.name}`}
                          onClick={() => {
                            revoke.reset();
                            setRevoking(key);
                          }}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {api_keys.length === 0 && (
              <Text c="dimmed" p="md">
                No API key yet.
              </Text>
            )}
          </Table.ScrollContainer>
        )}
      </QueryState>
      <ConfirmModal
        opened={revoking !== null}
        title="Revoke API key"
        confirm="Revoke"
        busy={revoke.isPending}
        error={revoke.error}
        onConfirm={() => void confirmRevoke()}
        onClose={() => setRevoking(null)}
      >
        <Text>
          Revoke <strong>{revoking?.name}</strong>? The scoring API refuses it within 10 seconds.
        </Text>
        {revoking?.id === sessionKeyId && (
          <Alert color="yellow" title="This is this console's own key">
            The console makes itself a new one right after.
          </Alert>
        )}
      </ConfirmModal>
    </Stack>
  );
}
