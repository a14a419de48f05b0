import { Action, ScoredEvent } from './action';

/** What the graph rules know of an event; the session graph remembers some of them (LOOKBACK_MS). */
export type Fact = 'sensitive_read' | 'outbound_connect' | 'delete' | 'privilege_change';

export interface GraphNode {
  eventId: string;
  sessionId: string;
  at: number;
  facts: Fact[];
}

/** Windows of the graph rules, in milliseconds. */
export const EXFILTRATION_WINDOW_MS = 60 * 60_000;
export const DELETE_BURST_WINDOW_MS = 60_000;
/** Deletes in the session tree within DELETE_BURST_WINDOW_MS, this one included, that make a burst. */
export const DELETE_BURST_SIZE = 5;

/**
 * The facts the graph rules look for among a tree's earlier events, and how far back each one
 * counts. An outbound connection is judged by what came before it but never judges a later event,
 * so it is not remembered (in the bench's fleet, two thirds of the events with facts).
 */
export const LOOKBACK_MS = {
  sensitive_read: EXFILTRATION_WINDOW_MS,
  privilege_change: EXFILTRATION_WINDOW_MS,
  delete: DELETE_BURST_WINDOW_MS,
} as const satisfies Partial<Record<Fact, number>>;

export type RememberedFact = keyof typeof LOOKBACK_MS;

export const REMEMBERED_FACTS = Object.keys(LOOKBACK_MS) as RememberedFact[];

/** How far back the history of a tree is needed before an event: the longest lookback. */
export const HISTORY_WINDOW_MS = Math.max(...Object.values(LOOKBACK_MS));

const isRemembered = (fact: Fact): fact is RememberedFact => fact in LOOKBACK_MS;

/** What the session graph keeps of an event's facts for the events after it. */
export const rememberedFacts = (facts: readonly Fact[]): RememberedFact[] => facts.filter(isRemembered);

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|::1|0\.0\.0\.0|\[::1\])$/i;
const PRIVILEGE_TOOLS = /^(sudo|su|doas|pkexec|runas|setcap|visudo)$/i;
const SHELLS = '(?:ba|z|da|k|fi)?sh|python[0-9.]*|perl|ruby|node|pwsh|powershell|iex';
const FETCHERS = '(?:curl|wget|fetch|iwr|invoke-webrequest|irm|invoke-restmethod)';
const REMOTE_PIPES = [
  new RegExp(`\\b${FETCHERS}\\b[^|;&]*\\|\\s*(?:sudo\\s+(?:-\\S+\\s+)*)?(?:${SHELLS})\\b`, 'i'),
  new RegExp(`\\b(?:${SHELLS})\\b\\s+(?:-\\S+\\s+)*<\\(\\s*${FETCHERS}\\b`, 'i'),
  new RegExp(`\\b(?:${SHELLS})\\b\\s+-c\\s+["']?\\$\\(\\s*${FETCHERS}\\b`, 'i'),
];

export const commandLine = (event: Pick<ScoredEvent, 'toolName' | 'arguments'>) =>
  [event.toolName ?? '', ...event.arguments].join(' ').trim();

export const isOutboundConnect = (action: Action) =>
  action.domain === 'network' && action.scope !== null && !LOCAL_HOST.test(action.scope);

export const pipesRemoteScript = (event: ScoredEvent) =>
  event.actionType === 'PROCESS_EXEC' && REMOTE_PIPES.some((re) => re.test(commandLine(event)));

export function changesPrivilege(event: ScoredEvent, action: Action): boolean {
  if (action.domain === 'file' && action.verb === 'write' && action.scope) {
    return /^\/etc\/(sudoers(\.d\/.*)?|passwd|shadow|group)$/.test(action.scope);
  }
  if (event.actionType !== 'PROCESS_EXEC') return false;
  const base = (event.toolName ?? '').split(/[\\/]/).pop() ?? '';
  if (PRIVILEGE_TOOLS.test(base)) return true;
  const args = event.arguments.join(' ');
  if (base === 'chmod') return /(^|\s)([ugoa]*\+[rwx]*s|[2467][0-7]{3})(\s|$)/.test(args);
  if (base === 'chown' || base === 'chgrp') return /(^|\s)root(:|\s|$)/.test(args);
  if (base === 'usermod' || base === 'gpasswd') return /\b(sudo|wheel|admin|root)\b/.test(args);
  return false;
}

export interface GraphHit {
  rule: string;
  flag: string;
}

/**
 * Session-graph rules for one event, given the earlier nodes of its session tree (the session, its
 * ancestors and their descendants). `history` may contain the event itself and later events; only
 * strictly earlier ones (by time, then id) count.
 */
export function graphHits(
  event: ScoredEvent,
  action: Action,
  facts: Fact[],
  history: readonly GraphNode[],
): GraphHit[] {
  const at = Date.parse(event.timestamp);
  const before = history.filter((n) => n.eventId !== event.id && (n.at < at || (n.at === at && n.eventId < event.id)));
  const hits: GraphHit[] = [];
  if (
    facts.includes('outbound_connect') &&
    before.some((n) => n.facts.includes('sensitive_read') && at - n.at <= LOOKBACK_MS.sensitive_read)
  ) {
    hits.push({ rule: 'graph.sensitive_read_then_connect', flag: 'sensitive_read_then_outbound_connect' });
  }
  if (facts.includes('delete')) {
    const recent = before.filter((n) => n.facts.includes('delete') && at - n.at <= LOOKBACK_MS.delete).length;
    if (recent + 1 >= DELETE_BURST_SIZE) hits.push({ rule: 'graph.delete_burst', flag: 'destructive_burst' });
  }
  if (pipesRemoteScript(event)) hits.push({ rule: 'graph.remote_script_pipe', flag: 'remote_script_piped_to_shell' });
  if (facts.includes('privilege_change')) hits.push({ rule: 'graph.privilege_change', flag: 'privilege_change' });
  else if (
    (facts.includes('outbound_connect') || action.verb === 'write' || action.verb === 'delete') &&
    before.some((n) => n.facts.includes('privilege_change') && at - n.at <= LOOKBACK_MS.privilege_change)
  ) {
    hits.push({ rule: 'graph.after_privilege_change', flag: 'acting_after_privilege_change' });
  }
  return hits;
}
