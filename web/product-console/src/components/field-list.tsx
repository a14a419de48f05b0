import { Table } from '@mantine/core';
import { ReactNode } from 'react';

/** Name / value pairs of one record as a two-column table. */
export function FieldList({ label, fields }: { label: string; fields: [string, ReactNode][] }) {
  return (
    <Table aria-label={label} withRowBorders={false} layout="fixed" maw={900}>
      <Table.Tbody>
        {fields.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th w={200} scope="row">
              {name}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
