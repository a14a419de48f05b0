import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useFlowCommand } from '../api/tenants';
import { TenantDetail } from '../api/types';
import { CurrentFlow, FlowActions } from '../domain/flow-actions';
import { ErrorAlert } from './error-alert';
import { MintTokenButton } from './mint-token';
import { TextCommandDialog } from './text-command-dialog';

type Dialog = 'cancel' | 'deprovision' | null;

/** The operator's commands on a tenant besides approval: resume, cancel, mint, deprovision. Rendered only for operators. */
export function FlowActionBar({
  tenant,
  flow,
  actions,
  onChanged,
}: {
  tenant: TenantDetail;
  flow: CurrentFlow;
  actions: FlowActions;
  onChanged: () => void;
}) {
  const command = useFlowCommand(tenant.slug);
  const [dialog, setDialog] = useState<Dialog>(null);
  const what = flow.kind === 'offboard' ? 'deprovisioning' : 'flow';

  const resume = async () => {
    try {
      await command.mutateAsync({ type: 'resume' });
      notifications.show({ color: 'green', message: `The ${what} of ${tenant.slug} resumed` });
    } catch {
      // Shown below.
    }
  };

  if (!(actions.resume || actions.cancel || actions.mint || actions.deprovision)) return null;
  return (
    <Group aria-label="Tenant actions" role="group">
      {actions.resume && (
        <Button loading={command.isPending && command.variables?.type === 'resume'} onClick={() => void resume()}>
          Resume
        </Button>
      )}
      {actions.mint && <MintTokenButton slug={tenant.slug} onMinted={onChanged} />}
      {actions.cancel && (
        <Button variant="light" color="orange" onClick={() => setDialog('cancel')}>
          {flow.kind === 'offboard' ? 'Cancel deprovisioning' : 'Cancel flow'}
        </Button>
      )}
      {actions.deprovision && (
        <Button variant="light" color="red" onClick={() => setDialog('deprovision')}>
          Deprovision
        </Button>
      )}
      {command.error && command.variables?.type === 'resume' && (
        <div style={{ flexBasis: '100%' }}>
          <ErrorAlert error={command.error} />
        </div>
      )}
      <TextCommandDialog
        opened={dialog === 'cancel'}
        onClose={() => setDialog(null)}
        title={flow.kind === 'offboard' ? 'Cancel the deprovisioning' : 'Cancel the flow'}
        explanation={
          flow.kind === 'offboard'
            ? 'The tenant stays as it is; the reason is recorded in the journal.'
            : 'The flow ends in cancelled: what it created is released and the slug is free again.'
        }
        field="reason"
        label="Reason"
        confirm="Confirm cancellation"
        color="orange"
        onSubmit={(reason) => command.mutateAsync({ type: 'cancel', reason })}
      />
      <TextCommandDialog
        opened={dialog === 'deprovision'}
        onClose={() => setDialog(null)}
        title={`Deprovision ${tenant.slug}`}
        explanation="Opens an offboard flow: once a second operator approves it, the tenant's tokens are revoked, its route retired, its identity erased and its database dropped."
        field="justification"
        label="Justification"
        confirm="Request deprovisioning"
        color="red"
        onSubmit={(justification) => command.mutateAsync({ type: 'deprovision', justification })}
      />
    </Group>
  );
}
