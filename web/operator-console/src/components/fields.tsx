import { SimpleGrid, Text } from '@mantine/core';
import { ReactNode } from 'react';

export type FieldRow = [label: string, value: ReactNode];

const shown = (value: ReactNode) => (value === null || value === undefined || value === '' ? '—' : value);

/** Label/value pairs as a description list, two columns on wide screens. */
export function Fields({ rows, label }: { rows: FieldRow[]; label?: string }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4} aria-label={label} m={0}>
      {rows.map(([name, value]) => (
        <div key={name}>
          <Text component="dt" size="xs" c="dimmed">
            {name}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {shown(value)}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** An instant as the operator's locale writes it, with the ISO text as a tooltip. */
export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <>—</>;
  return (
    <time dateTime={at} title={at}>
      {new Date(at).toLocaleString()}
    </time>
  );
}
