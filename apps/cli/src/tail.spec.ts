import { formatEvent, JournalEvent, stateAfter, takeFrames } from './tail';

const event = (over: Partial<JournalEvent> = {}): JournalEvent => ({
  position: 7,
  type: 'CellPlaced',
  flow_kind: 'onboard',
  actor: 'system',
  recorded_at: '2026-11-22T05:00:00.000Z',
  data: { cell: 'local-1' },
  ...over,
});

describe('agentwatch tail', () => {
  it('takes whole frames only, keeps a split frame for the next chunk, and skips comments and retry frames', () => {
    const stream = `retry: 2000\n\n: keep-alive\n\nid: 1\nevent: TenantRequested\ndata: {"a":1}\n\nid: 2\nevent: Appr`;
    const first = takeFrames(stream);
    expect(first.frames).toEqual([{ id: '1', event: 'TenantRequested', data: '{"a":1}' }]);
    expect(first.rest).toBe('id: 2\nevent: Appr');

    const second = takeFrames(`${first.rest}ovalRequested\ndata: {"b":"x: y"}\n\n`);
    expect(second.frames).toEqual([{ id: '2', event: 'ApprovalRequested', data: '{"b":"x: y"}' }]);
    expect(second.rest).toBe('');
  });

  it('names the state an event leads to, approval by the flow it approves', () => {
    expect(stateAfter({ type: 'FlowApproved', flow_kind: 'onboard' })).toBe('provisioning');
    expect(stateAfter({ type: 'FlowApproved', flow_kind: 'offboard' })).toBe('deprovisioning');
    expect(stateAfter({ type: 'DeprovisionRequested', flow_kind: 'offboard' })).toBe('pending-approval');
    expect(stateAfter({ type: 'ResourcesReleased', flow_kind: 'onboard' })).toBeNull();
  });

  it('prints one line per event, coloured only on a terminal', () => {
    expect(formatEvent(event(), { color: false })).toBe(
      '2026-11-22T05:00:00.000Z #7 onboard CellPlaced → provisioned by system {"cell":"local-1"}',
    );
    expect(formatEvent(event({ type: 'StepFailed', data: {} }), { color: true })).toBe(
      '2026-11-22T05:00:00.000Z #7 onboard StepFailed → \u001b[31mfailed\u001b[0m by system',
    );
    expect(formatEvent(event({ type: 'ResourcesReleased', data: {} }), { color: false })).toBe(
      '2026-11-22T05:00:00.000Z #7 onboard ResourcesReleased by system',
    );
  });
});
