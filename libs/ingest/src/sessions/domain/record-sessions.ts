import { SessionIngestRecord, SessionLifecycleItem, SessionRecordedV1 } from '@agentwatch/contracts';
import { canonicalTime } from '../../events/domain/record-events';

export interface SessionRecordingContext {
  orgId: string;
  receivedAt: Date;
  newId: () => string;
}

/** The wrapper's lifecycle item as the flat record of the spec. */
export function fromLifecycleItem(item: SessionLifecycleItem): SessionIngestRecord {
  const at = (item.event_type === 'session_start' ? item.started_at : item.ended_at) ?? item.timestamp;
  return {
    session_id: item.session_id,
    state: item.event_type === 'session_start' ? 'active' : 'ended',
    timestamp: at!,
    session_name: item.session_name,
    model: item.model,
    signing_id: item.signing_id,
    platform: item.platform,
    parent_id: item.parent_id,
  };
}

export function recordSession(record: SessionIngestRecord, context: SessionRecordingContext): SessionRecordedV1 {
  return {
    id: context.newId(),
    org_id: context.orgId,
    session_id: record.session_id,
    state: record.state,
    timestamp: canonicalTime(record.timestamp),
    session_name: record.session_name ?? null,
    model: record.model ?? null,
    signing_id: record.signing_id ?? null,
    platform: record.platform ?? null,
    parent_id: record.parent_id ?? null,
    received_at: context.receivedAt.toISOString(),
  };
}
