import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { ReactNode } from 'react';
import { describeError } from '../api/errors';

/** "Are you sure?" before something that cannot be undone; the error of the attempt, if any, stays in the dialog. */
export function ConfirmModal({
  opened,
  title,
  confirm,
  children,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  confirm: string;
  children: ReactNode;
  busy?: boolean;
  error?: Error | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        {children}
        {error && (
          <Alert color="red" title="It did not work">
            {describeError(error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={onConfirm}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
