import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useFlowCommand } from '../api/tenants';
import { TenantDetail } from '../api/types';
import { FlowActions } from '../domain/flow-actions';
import { ErrorAlert } from './error-alert';
import { FieldRow, Fields } from './fields';
import { TextCommandDialog } from './text-command-dialog';

/** The request waiting for a second operator: onboarding (the tenant request) or deprovisioning (its justification). */
export function ApprovalCard({ tenant, actions }: { tenant: TenantDetail; actions: FlowActions }) {
  const command = useFlowCommand(tenant.slug);
  const [rejecting, setRejecting] = useState(false);
  const offboard = tenant.deprovision !== null && tenant.deprovision.state === 'pending-approval';
  const requester = offboard ? tenant.deprovision?.requester : tenant.requester;
  const rows: FieldRow[] = [
    ['Request', offboard ? 'Deprovision the tenant' : 'Onboard a new tenant'],
    ['Requested by', requester],
    ...(offboard ? ([['Justification', tenant.deprovision?.justification]] as FieldRow[]) : []),
    ['Name', tenant.name],
    ['Owner', tenant.owner_email],
    ['Region', tenant.region],
    ['Plan', tenant.plan_tier],
    ['Isolation', tenant.isolation],
    ['Security profile target', tenant.security_profile_target],
    ['Developer endpoints', tenant.dev_endpoints],
    ['Server endpoints', tenant.server_endpoints],
    ['Notes', tenant.notes],
  ];

  const approve = async () => {
    try {
      await command.mutateAsync({ type: 'approve' });
      notifications.show({
        color: 'green',
        message: `${offboard ? 'Deprovisioning' : 'Tenant'} ${tenant.slug} approved`,
      });
    } catch {
      // Shown below from the mutation's error.
    }
  };

  return (
    <Card withBorder component="section" aria-labelledby="approval-title" bg="var(--mantine-color-yellow-light)">
      <Stack>
        <Title order={3} id="approval-title">
          {offboard ? 'Deprovisioning awaits approval' : 'Request awaits approval'}
        </Title>
        <Fields rows={rows} label="Request to approve" />
        {actions.ownRequest ? (
          <Alert color="blue">Another operator must approve this request.</Alert>
        ) : (
          !actions.approve && <Text size="sm">An operator other than {requester} must approve this request.</Text>
        )}
        {command.error && command.variables?.type === 'approve' && <ErrorAlert error={command.error} />}
        {(actions.approve || actions.reject) && (
          <Group>
            {actions.approve && (
              <Button color="green" loading={command.isPending} onClick={() => void approve()}>
                Approve
              </Button>
            )}
            {actions.reject && (
              <Button color="red" variant="light" onClick={() => setRejecting(true)}>
                Reject
              </Button>
            )}
          </Group>
        )}
      </Stack>
      <TextCommandDialog
        opened={rejecting}
        onClose={() => setRejecting(false)}
        title={offboard ? 'Reject the deprovisioning' : 'Reject the request'}
        explanation={
          offboard
            ? 'The tenant stays as it is; the reason is recorded in the journal.'
            : 'The flow ends in rejected and the slug is free again; the reason is recorded in the journal.'
        }
        field="reason"
        label="Reason"
        confirm="Confirm rejection"
        color="red"
        onSubmit={(reason) => command.mutateAsync({ type: 'reject', reason })}
      />
    </Card>
  );
}
