import { Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMachines, useRevokeMachine } from '../api/credentials';
import type { MachineView } from '../api/types';
import { ConfirmModal } from '../components/confirm-modal';
import { CredentialStatus } from '../components/credential-status';
import { QueryState } from '../components/query-state';
import { RevokeButton } from '../components/revoke-button';
import { formatTime } from '../domain/time';

export default function Machines() {
  const machines = useMachines();
  const revoke = useRevokeMachine();
  const [revoking, setRevoking] = useState<MachineView | null>(null);
  const confirmRevoke = () =>
    revoking &&
    revoke.mutate(revoking.machine_id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Machine ${revoking.machine_id} revoked` });
        setRevoking(null);
      },
    });
  return (
    <Stack>
      <Title order={2}>Machines</Title>
      <Text>Machines enrolled with a deploy token, each with its own service token.</Text>
      <QueryState query={machines} what="machines">
        {(data) => (
          <Table.ScrollContainer minWidth={1000}>
            <Table striped aria-label="Machines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Machine</Table.Th>
                  <Table.Th>Hostname</Table.Th>
                  <Table.Th>OS / arch</Table.Th>
                  <Table.Th>Daemon</Table.Th>
                  <Table.Th>Token prefix</Table.Th>
                  <Table.Th>Registered</Table.Th>
                  <Table.Th>First ingest</Table.Th>
                  <Table.Th>Last seen</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.machines.map((m) => (
                  <Table.Tr key={m.machine_id}>
                    <Table.Td>{m.machine_id}</Table.Td>
                    <Table.Td>{m.hostname}</Table.Td>
                    <Table.Td>{[m.os, m.arch].filter(Boolean).join(' / ')}</Table.Td>
                    <Table.Td>{m.daemon_version}</Table.Td>
                    <Table.Td>{m.token_prefix}…</Table.Td>
                    <Table.Td>{formatTime(m.registered_at)}</Table.Td>
                    <Table.Td>{formatTime(m.first_ingest_at) || 'not yet'}</Table.Td>
                    <Table.Td>{formatTime(m.last_seen_at)}</Table.Td>
                    <Table.Td>
                      <CredentialStatus revokedAt={m.revoked_at} />
                    </Table.Td>
                    <Table.Td>
                      {!m.revoked_at && (
                        <RevokeButton
                          what={`machine ${m.machine_id}`}
                          onClick={() => {
                            revoke.reset();
                            setRevoking(m);
                          }}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {data.machines.length === 0 && (
              <Text c="dimmed" p="md">
                No machine has enrolled yet: create a deploy token and register a daemon with it.
              </Text>
            )}
          </Table.ScrollContainer>
        )}
      </QueryState>
      <ConfirmModal
        opened={revoking !== null}
        title="Revoke machine"
        confirm="Revoke"
        busy={revoke.isPending}
        error={revoke.error}
        onConfirm={() => void confirmRevoke()}
        onClose={() => setRevoking(null)}
      >
        <Text>
          Revoke <strong>{revoking?.machine_id}</strong>? Its service token stops working; registering it again with a
          deploy token issues a new one.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}
