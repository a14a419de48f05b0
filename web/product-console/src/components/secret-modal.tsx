import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';

/** A credential shown this once, right after it was created: copy it now or never. */
export function SecretModal({
  title,
  what,
  secret,
  onClose,
}: {
  title: string;
  what: string;
  secret: string | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title={title} size="lg" closeOnClickOutside={false}>
      <Stack>
        <Alert color="yellow" title={`Copy the ${what} now`}>
          You will not see it again: only its prefix is kept. If it is lost, revoke it and create another.
        </Alert>
        <TextInput
          readOnly
          label={`New ${what}`}
          value={secret ?? ''}
          styles={{ input: { fontFamily: 'monospace' } }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : `Copy ${what}`}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
        <Text size="sm" c="dimmed" role="status">
          {secret ? `The ${what} is shown here once.` : ''}
        </Text>
      </Stack>
    </Modal>
  );
}
