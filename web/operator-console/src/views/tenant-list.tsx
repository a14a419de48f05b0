import { Anchor, Button, Group, Loader, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../api/session';
import { useTenantList } from '../api/tenants';
import { LISTABLE_STATES } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { When } from '../components/fields';
import { PresentationBadge, StateBadge } from '../components/state-badge';

const ALL = '';

/** /tenants: every tenant's current flow, newest request first; `?state=` filters (a deep link). */
export function TenantListView() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('state') ?? ALL;
  const state = LISTABLE_STATES.find((listable) => listable === raw) ?? null;
  const { canWrite } = useSession();
  const list = useTenantList(state);
  const tenants = list.data?.pages.flatMap((page) => page.tenants) ?? [];

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Title order={2}>Tenants</Title>
        {canWrite && (
          <Button component={Link} to="/tenants/new">
            Request a tenant
          </Button>
        )}
      </Group>
      <NativeSelect
        label="State"
        w={260}
        value={state ?? ALL}
        data={[{ value: ALL, label: 'All states' }, ...LISTABLE_STATES.map((s) => ({ value: s, label: s }))]}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setParams(next === ALL ? {} : { state: next });
        }}
      />
      <ErrorAlert error={list.error} />
      {list.isPending ? (
        <Loader aria-label="Loading tenants" />
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover aria-label="Tenants">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Slug</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Presentation</Table.Th>
                <Table.Th>Region</Table.Th>
                <Table.Th>Plan</Table.Th>
                <Table.Th>Requested by</Table.Th>
                <Table.Th>Requested</Table.Th>
                <Table.Th>Updated</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tenants.map((tenant) => (
                <Table.Tr key={tenant.slug}>
                  <Table.Td>
                    <Anchor component={Link} to={`/tenants/${encodeURIComponent(tenant.slug)}`} size="sm">
                      {tenant.slug}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{tenant.name ?? '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <StateBadge state={tenant.state} />
                      {tenant.flow_kind === 'offboard' && (
                        <Text size="xs" c="dimmed">
                          (offboarding)
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <PresentationBadge presentation={tenant.presentation} />
                  </Table.Td>
                  <Table.Td>{tenant.region ?? '—'}</Table.Td>
                  <Table.Td>{tenant.plan_tier ?? '—'}</Table.Td>
                  <Table.Td>{tenant.requested_by}</Table.Td>
                  <Table.Td>
                    <When at={tenant.requested_at} />
                  </Table.Td>
                  <Table.Td>
                    <When at={tenant.updated_at} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!list.isPending && tenants.length === 0 && !list.error && (
        <Text c="dimmed">{state ? `No tenant is ${state}.` : 'No tenant has been requested yet.'}</Text>
      )}
      {list.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          Load more tenants
        </Button>
      )}
    </Stack>
  );
}
