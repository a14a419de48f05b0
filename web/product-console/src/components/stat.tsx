import { Paper, Text } from '@mantine/core';
import { ReactNode, useId } from 'react';

/** A labelled figure: a group named by its label, so assistive technology and tests find the value by it. */
export function Stat({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper withBorder p="md" role="group" aria-labelledby={id}>
      <Text id={id} size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {children}
      </Text>
    </Paper>
  );
}
