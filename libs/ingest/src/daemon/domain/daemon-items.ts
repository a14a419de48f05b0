import {
  ACTION_TYPES,
  ActionType,
  DaemonActionItem,
  daemonActionItem,
  EventIngestItem,
  eventIngestItem,
  SessionIngestRecord,
  sessionIngestRecord,
  sessionLifecycleItem,
} from '@agentwatch/contracts';
import { fromLifecycleItem } from '../../sessions/domain/record-sessions';

/** What one item of `POST /v1/ingest` turned out to be. */
export type DaemonItem = { kind: 'event'; event: EventIngestItem } | { kind: 'session'; session: SessionIngestRecord };

export interface ItemIssue {
  path: string;
  message: string;
}

const ALIASES: Record<string, ActionType> = {
  exec: 'PROCESS_EXEC',
  spawn: 'PROCESS_EXEC',
  read: 'FILE_READ',
  write: 'FILE_WRITE',
  delete: 'FILE_DELETE',
  connect: 'NETWORK_CONNECT',
};

/** `PROCESS_EXEC`, `process_exec`, `process.exec`, `exec` … → the action type; null when unknown. */
export function actionTypeOf(action: string): ActionType | null {
  const normal = action
    .trim()
    .toUpperCase()
    .replace(/[.:\s-]+/g, '_');
  if ((ACTION_TYPES as readonly string[]).includes(normal)) return normal as ActionType;
  return ALIASES[action.trim().toLowerCase()] ?? null;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function fromDevelopmentShape(item: DaemonActionItem, receivedAt: Date): EventIngestItem | ItemIssue {
  const actionType = actionTypeOf(item.action);
  if (!actionType)
    return { path: 'action', message: `unknown action "${item.action}": expected one of ${ACTION_TYPES.join(', ')}` };
  const meta = item.metadata ?? {};
  const args = meta.arguments ?? meta.args ?? (text(meta.path) ? [meta.path] : undefined);
  const candidate = {
    event_id: item.event_id,
    action_type: actionType,
    timestamp: item.timestamp ?? text(meta.timestamp) ?? receivedAt.toISOString(),
    tool_name: text(meta.tool_name) ?? text(meta.tool),
    arguments: args,
    session_id: item.session_id ?? text(meta.session_id),
    agent_id: item.agent,
    decision: item.blocked ? 'block' : 'allow',
  };
  const parsed = eventIngestItem.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const [first] = parsed.error.issues;
  return { path: `metadata.${first.path.join('.')}`, message: first.message };
}

const issueOf = (error: { issues: { path: PropertyKey[]; message: string }[] }): ItemIssue => ({
  path: error.issues[0].path.map(String).join('.'),
  message: error.issues[0].message,
});

/**
 * Classifies one mixed daemon item by its distinguishing field: `action_type` (event ingest item),
 * `action` (development event shape), `event_type` (wrapper lifecycle item), `state` (flat session
 * record). Anything else is refused with the reason.
 */
export function readDaemonItem(raw: unknown, receivedAt: Date): DaemonItem | ItemIssue {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { path: '', message: 'expected an object' };
  const item = raw as Record<string, unknown>;
  if ('action_type' in item) {
    const parsed = eventIngestItem.safeParse(item);
    return parsed.success ? { kind: 'event', event: parsed.data } : issueOf(parsed.error);
  }
  if ('action' in item) {
    const parsed = daemonActionItem.safeParse(item);
    if (!parsed.success) return issueOf(parsed.error);
    const event = fromDevelopmentShape(parsed.data, receivedAt);
    return 'action_type' in event ? { kind: 'event', event } : event;
  }
  if ('event_type' in item) {
    const parsed = sessionLifecycleItem.safeParse(item);
    return parsed.success ? { kind: 'session', session: fromLifecycleItem(parsed.data) } : issueOf(parsed.error);
  }
  if ('state' in item) {
    const parsed = sessionIngestRecord.safeParse(item);
    return parsed.success ? { kind: 'session', session: parsed.data } : issueOf(parsed.error);
  }
  return { path: '', message: 'not a daemon item: expected action_type, action, event_type or state' };
}
