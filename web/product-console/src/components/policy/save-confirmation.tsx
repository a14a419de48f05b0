import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { describeError } from '../../api/errors';
import { FIELD_LABELS, FieldReset } from '../../domain/policy';

/**
 * PUT replaces the whole policy: before it goes, the user sees every field that ends up at its
 * default because the draft leaves it empty, and what is stored there now that the save removes.
 */
export function SaveConfirmation({
  opened,
  resets,
  version,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  resets: FieldReset[];
  version: number | null;
  busy: boolean;
  error: Error | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Replace the whole policy?" size="lg">
      <Stack>
        <Text>
          Saving replaces {version === null ? 'the (not yet saved) policy' : `version ${version}`} as a whole with this
          draft: it becomes version {(version ?? 0) + 1}, and events received from now on are scored under it.
        </Text>
        {resets.length ? (
          <>
            <Text fw={500}>These fields are empty, so they will be reset to their default:</Text>
            <List aria-label="Fields reset to their default">
              {resets.map(({ field, removes }) => (
                <List.Item key={field}>
                  {FIELD_LABELS[field]} → {field === 'custom_rules' ? 'no rules ({})' : 'empty list ([])'}
                  {removes > 0 && (
                    <Text span c="red" fw={700}>
                      {' '}
                      — removes the {removes} {removes === 1 ? 'entry' : 'entries'} stored now
                    </Text>
                  )}
                </List.Item>
              ))}
            </List>
          </>
        ) : (
          <Text>Every field has a value: nothing is reset to its default.</Text>
        )}
        {error && (
          <Alert color="red" title="The policy was not saved">
            {describeError(error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="orange" loading={busy} onClick={onConfirm}>
            Replace policy
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
