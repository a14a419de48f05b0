import { Anchor, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useSession } from '../api/session';
import { tenantKeys, useTenant } from '../api/tenants';
import { useFlowJournal } from '../api/use-flow-journal';
import { ApprovalCard } from '../components/approval-card';
import { ErrorAlert } from '../components/error-alert';
import { FlowActionBar } from '../components/flow-action-bar';
import { FlowJournal } from '../components/flow-journal';
import { PresentationBadge, StateBadge } from '../components/state-badge';
import { RetryNotice, TenantFacts } from '../components/tenant-facts';
import { actionsFor, currentFlow } from '../domain/flow-actions';

/** Journal events often come in bursts (a replay, a step and its follow-up): read the detail once per burst. */
const REFRESH_AFTER_MS = 200;

/** /tenants/:slug: the tenant's detail, its approval, the operator's commands and the live journal. */
export function TenantDetailView() {
  const slug = useParams().slug ?? '';
  const { role, subject } = useSession();
  const detail = useTenant(slug);
  const journal = useFlowJournal(slug);
  const queries = useQueryClient();

  const refresh = () => void queries.invalidateQueries({ queryKey: tenantKeys.detail(slug) });
  useEffect(() => {
    if (journal.lastEventId === null) return;
    const timer = setTimeout(
      () => void queries.invalidateQueries({ queryKey: tenantKeys.detail(slug) }),
      REFRESH_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [journal.lastEventId, queries, slug]);

  const tenant = detail.data;
  const flow = tenant ? currentFlow(tenant) : null;
  const actions = tenant ? actionsFor(tenant, role, subject) : null;

  return (
    <Stack>
      <Anchor component={Link} to="/tenants" size="sm">
        ← All tenants
      </Anchor>
      <Title order={2}>Tenant {slug}</Title>
      {detail.isPending && <Loader aria-label="Loading the tenant" />}
      <ErrorAlert error={detail.error} />
      {tenant && flow && actions && (
        <>
          <Group gap="xs" role="group" aria-label="Status">
            <Text size="sm">State</Text>
            <StateBadge state={tenant.state} />
            <Text size="sm">Presentation</Text>
            <PresentationBadge presentation={tenant.presentation} />
            {flow.kind === 'offboard' && tenant.deprovision && (
              <>
                <Text size="sm">Deprovisioning</Text>
                <StateBadge state={tenant.deprovision.state} />
                <PresentationBadge presentation={tenant.deprovision.presentation} />
              </>
            )}
          </Group>
          <RetryNotice flow={tenant} label="The flow" />
          {tenant.deprovision && <RetryNotice flow={tenant.deprovision} label="The deprovisioning" />}
          {actions.awaitingApproval && <ApprovalCard tenant={tenant} actions={actions} />}
          <FlowActionBar tenant={tenant} flow={flow} actions={actions} onChanged={refresh} />
          <TenantFacts tenant={tenant} />
        </>
      )}
      <FlowJournal journal={journal} />
    </Stack>
  );
}
