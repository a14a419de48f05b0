import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFound() {
  return (
    <Stack>
      <Title order={2}>Not found</Title>
      <Text>
        This console has no page here.{' '}
        <Anchor component={Link} to="/">
          Back to the overview
        </Anchor>
      </Text>
    </Stack>
  );
}
