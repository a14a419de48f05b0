import { Alert, Stack, Title } from '@mantine/core';
import { OffboardDetail, TenantDetail } from '../api/types';
import { FieldRow, Fields, When } from './fields';
import { PresentationBadge, StateBadge } from './state-badge';

/** A failing or paused flow: what failed, how often, and when it runs again. */
export function RetryNotice({ flow, label }: { flow: TenantDetail | OffboardDetail; label: string }) {
  if (flow.state !== 'failed' && flow.state !== 'paused' && !flow.last_error) return null;
  const paused = flow.state === 'paused';
  return (
    <Alert
      color={paused ? 'red' : 'orange'}
      title={paused ? `${label} paused: needs a resume` : `${label} backing off`}
    >
      Step {flow.failed_step ?? '—'}, {flow.attempts} attempt{flow.attempts === 1 ? '' : 's'}
      {flow.next_retry_at && (
        <>
          , next retry <When at={flow.next_retry_at} />
        </>
      )}
      . Last error: {flow.last_error ?? '—'}
    </Alert>
  );
}

function Section({ title, rows }: { title: string; rows: FieldRow[] }) {
  return (
    <Stack component="section" gap="xs" aria-label={title}>
      <Title order={3}>{title}</Title>
      <Fields rows={rows} />
    </Stack>
  );
}

/** Everything the detail answers, grouped: placement, request, flow, and the deprovisioning if any. */
export function TenantFacts({ tenant }: { tenant: TenantDetail }) {
  const offboard = tenant.deprovision;
  return (
    <Stack>
      <Section
        title="Placement"
        rows={[
          ['Cell', tenant.placement.cell],
          ['Region', tenant.placement.region],
          ['Database name', tenant.placement.database_name],
          ['Schema version', tenant.placement.schema_version],
        ]}
      />
      <Section
        title="Request"
        rows={[
          ['Name', tenant.name],
          ['Owner email', tenant.owner_email],
          ['Region', tenant.region],
          ['Plan tier', tenant.plan_tier],
          ['Isolation', tenant.isolation],
          ['Security profile target', tenant.security_profile_target],
          ['Developer endpoints', tenant.dev_endpoints],
          ['Server endpoints', tenant.server_endpoints],
          ['Notes', tenant.notes],
        ]}
      />
      <Section
        title="Flow"
        rows={[
          ['Flow', `${tenant.flow_kind} ${tenant.flow_id}`],
          ['Organization', tenant.organization_id],
          ['Requester', tenant.requester],
          ['Approver', tenant.approver],
          ['Requested', <When key="r" at={tenant.requested_at} />],
          ['Approved', <When key="a" at={tenant.approved_at} />],
          ['Updated', <When key="u" at={tenant.updated_at} />],
          ['Activated', <When key="act" at={tenant.activated_at} />],
          ['Ended', <When key="e" at={tenant.ended_at} />],
          ['End reason', tenant.end_reason],
          ['Ingest tokens minted', tenant.tokens_minted],
        ]}
      />
      {offboard && (
        <Section
          title="Deprovisioning"
          rows={[
            ['State', <StateBadge key="s" state={offboard.state} />],
            ['Presentation', <PresentationBadge key="p" presentation={offboard.presentation} />],
            ['Justification', offboard.justification],
            ['Requester', offboard.requester],
            ['Approver', offboard.approver],
            ['Requested', <When key="r" at={offboard.requested_at} />],
            ['Ended', <When key="e" at={offboard.ended_at} />],
            ['End reason', offboard.end_reason],
          ]}
        />
      )}
    </Stack>
  );
}
