import { Alert, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { useAuth } from '../../../shared/auth';
import type { CloudClient } from '../api/api-context';
import { describeError } from '../api/errors';
import { useCreateTenant } from '../api/organization';

/** Shown instead of the console while the signed-in identity belongs to no organization. */
export function CreateOrganization({ cloud }: { cloud: CloudClient }) {
  const { signOut } = useAuth();
  const create = useCreateTenant(cloud);
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  };
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" maw={480} w="100%">
        <form onSubmit={submit}>
          <Stack>
            <Title order={2}>Create your organization</Title>
            <Text>
              You do not belong to an organization yet. Name yours to start: you become its first member, and its deploy
              tokens, machines and policy are yours to manage.
            </Text>
            <TextInput
              label="Organization name"
              required
              maxLength={200}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
            />
            {create.error && (
              <Alert color="red" title="The organization was not created">
                {describeError(create.error)}
              </Alert>
            )}
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              Create organization
            </Button>
            <Button variant="subtle" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
