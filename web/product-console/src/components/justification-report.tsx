import { Badge, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import type { Justification } from '../api/types';

export function JustificationReport({ report }: { report: Justification }) {
  return (
    <Stack>
      <Text fw={500}>{report.summary}</Text>
      <Text>{report.score_justification}</Text>
      <Title order={4}>Violations</Title>
      {report.violation_details.length ? (
        <Table.ScrollContainer minWidth={700}>
          <Table aria-label="Violation details">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Violation</Table.Th>
                <Table.Th>Framework</Table.Th>
                <Table.Th>Article</Table.Th>
                <Table.Th>Explanation</Table.Th>
                <Table.Th>Consequence</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.violation_details.map((v) => (
                <Table.Tr key={`${v.violation}-${v.framework}-${v.article}`}>
                  <Table.Td>{v.violation}</Table.Td>
                  <Table.Td>{v.framework}</Table.Td>
                  <Table.Td>{v.article}</Table.Td>
                  <Table.Td>{v.explanation}</Table.Td>
                  <Table.Td>{v.consequence}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed">No violation.</Text>
      )}
      <Title order={4}>Remediation steps</Title>
      {report.remediation_steps.length ? (
        <List type="ordered">
          {report.remediation_steps.map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
      ) : (
        <Text c="dimmed">None.</Text>
      )}
      <Title order={4}>Frameworks impacted</Title>
      {report.frameworks_impacted.length ? (
        <Group gap={4}>
          {report.frameworks_impacted.map((f) => (
            <Badge key={f} variant="outline">
              {f}
            </Badge>
          ))}
        </Group>
      ) : (
        <Text c="dimmed">None.</Text>
      )}
    </Stack>
  );
}
