import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFoundView() {
  return (
    <Stack>
      <Title order={2}>Page not found</Title>
      <Text>
        This console has no such page.{' '}
        <Anchor component={Link} to="/tenants">
          See the tenants
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
