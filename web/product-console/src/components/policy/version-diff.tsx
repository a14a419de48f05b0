import { Badge, List, Stack, Table, Text } from '@mantine/core';
import { FIELD_LABELS } from '../../domain/policy';
import type { FieldDiff } from '../../domain/policy-diff';

function Values({ values, sign, colour }: { values: string[]; sign: string; colour: string }) {
  if (values.length === 0) return <Text c="dimmed">—</Text>;
  return (
    <List listStyleType="none" spacing={2}>
      {values.map((value) => (
        <List.Item key={value}>
          <Text span c={colour} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {sign} {value}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

/** One version's changes against the one before, field by field. */
export function VersionDiff({ diffs, label }: { diffs: FieldDiff[]; label: string }) {
  if (diffs.length === 0) return <Text>No field changed: this version saved the same policy again.</Text>;
  return (
    <Table aria-label={label} layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={220}>Field</Table.Th>
          <Table.Th>Added</Table.Th>
          <Table.Th>Removed</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {diffs.map((diff) => (
          <Table.Tr key={diff.field}>
            <Table.Td>
              <Stack gap={4}>
                {FIELD_LABELS[diff.field]}
                {diff.changed.length > 0 && (
                  <Badge variant="light" color="yellow">
                    changed: {diff.changed.join(', ')}
                  </Badge>
                )}
              </Stack>
            </Table.Td>
            <Table.Td>
              <Values values={diff.added} sign="+" colour="green" />
            </Table.Td>
            <Table.Td>
              <Values values={diff.removed} sign="−" colour="red.9" />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
