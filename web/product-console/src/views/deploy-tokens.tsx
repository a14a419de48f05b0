import { Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useCreateDeployToken, useDeployTokens, useRevokeDeployToken } from '../api/credentials';
import type { DeployTokenView } from '../api/types';
import { ConfirmModal } from '../components/confirm-modal';
import { CreateForm } from '../components/create-form';
import { CredentialStatus } from '../components/credential-status';
import { QueryState } from '../components/query-state';
import { RevokeButton } from '../components/revoke-button';
import { SecretModal } from '../components/secret-modal';
import { formatTime } from '../domain/time';

export default function DeployTokens() {
  const tokens = useDeployTokens();
  const create = useCreateDeployToken();
  const revoke = useRevokeDeployToken();
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<DeployTokenView | null>(null);

  const confirmRevoke = () =>
    revoking &&
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Deploy token ${revoking.name} revoked` });
        setRevoking(null);
      },
    });

  return (
    <Stack>
      <Title order={2}>Deploy tokens</Title>
      <Text>A deploy token enrolls machines: each daemon exchanges it for its own service token.</Text>
      <Paper withBorder p="md">
        <CreateForm
          label="Token name"
          action="Create deploy token"
          busy={create.isPending}
          error={create.error}
          onCreate={(name, reset) =>
            create.mutate(name, {
              onSuccess: (created) => {
                reset();
                setSecret(created.token);
              },
            })
          }
        />
      </Paper>
      <SecretModal title="Deploy token created" what="deploy token" secret={secret} onClose={() => setSecret(null)} />
      <QueryState query={tokens} what="deploy tokens">
        {({ deploy_tokens }) => (
          <Table.ScrollContainer minWidth={700}>
            <Table striped aria-label="Deploy tokens">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Prefix</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deploy_tokens.map((token) => (
                  <Table.Tr key={token.id}>
                    <Table.Td>{token.name}</Table.Td>
                    <Table.Td>{token.prefix}…</Table.Td>
                    <Table.Td>{formatTime(token.created_at)}</Table.Td>
                    <Table.Td>{formatTime(token.last_used_at) || 'never'}</Table.Td>
                    <Table.Td>
                      <CredentialStatus revokedAt={token.revoked_at} />
                    </Table.Td>
                    <Table.Td>
                      {!token.revoked_at && (
                        <RevokeButton
                          what={`deploy token ${token.name}`}
                          onClick={() => {
                            revoke.reset();
                            setRevoking(token);
                          }}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {deploy_tokens.length === 0 && (
              <Text c="dimmed" p="md">
                No deploy token yet.
              </Text>
            )}
          </Table.ScrollContainer>
        )}
      </QueryState>
      <ConfirmModal
        opened={revoking !== null}
        title="Revoke deploy token"
        confirm="Revoke"
        busy={revoke.isPending}
        error={revoke.error}
        onConfirm={() => void confirmRevoke()}
        onClose={() => setRevoking(null)}
      >
        <Text>
          Revoke <strong>{revoking?.name}</strong>? It stops working at once: no daemon can enroll or send events with
          it any more. Machines already enrolled keep their own service tokens (revoke those on the Machines page).
        </Text>
      </ConfirmModal>
    </Stack>
  );
}
