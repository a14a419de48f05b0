import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { describeError } from '../api/errors';

/** A name and a create button: the first step of every credential. */
export function CreateForm({
  label,
  action,
  busy,
  error,
  onCreate,
}: {
  label: string;
  action: string;
  busy: boolean;
  error: Error | null;
  onCreate: (name: string, reset: () => void) => void;
}) {
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) onCreate(name.trim(), () => setName(''));
  };
  return (
    <form onSubmit={submit} aria-label={action}>
      <Stack gap="xs">
        <Group align="flex-end">
          <TextInput label={label} required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Button type="submit" loading={busy} disabled={!name.trim()}>
            {action}
          </Button>
        </Group>
        {error && (
          <Alert color="red" title="Not created">
            {describeError(error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
