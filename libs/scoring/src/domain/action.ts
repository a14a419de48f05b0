import { ActionType } from '@agentwatch/contracts';

/** What the rule engine sees of an event: the fields of `ingest.events.v1` that describe the act. */
export interface ScoredEvent {
  id: string;
  orgId: string;
  sessionId: string | null;
  actionType: ActionType;
  toolName: string | null;
  arguments: string[];
  decision: 'allow' | 'warn' | 'block';
  timestamp: string;
  /** When the cloud accepted the event: selects the policy version in effect. */
  receivedAt: string;
}

/** `domain:scope:verb` (docs/api/scoring.md). `scope` is null when the event does not say what it touched. */
export interface Action {
  domain: 'process' | 'file' | 'network' | 'mcp';
  scope: string | null;
  verb: 'exec' | 'read' | 'write' | 'delete' | 'connect' | 'call';
  /** The action as a string, with `?` standing for an unknown scope. */
  text: string;
}

// Daemons report MCP tool calls as process launches whose tool is `mcp__<server>__<tool>` (the
// Claude Code convention) or `mcp:<server>.<tool>`.
const MCP_TOOL = /^mcp(?:__([^_].*?)__(.+)|:([^.]+)\.(.+))$/;

const FILE_VERBS = { FILE_READ: 'read', FILE_WRITE: 'write', FILE_DELETE: 'delete' } as const;

/** The host of a connection target: `https://host:443/x`, `host:443`, `[::1]:80` or a bare host. */
export function hostOf(target: string): string {
  const trimmed = target.trim();
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return new URL(trimmed).hostname.replace(/^\[|\]$/g, '');
  } catch {
    // not a URL after all: fall through to host[:port]
  }
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed);
  if (bracketed) return bracketed[1];
  const hostPort = /^([^:/\s]+):\d+$/.exec(trimmed);
  return (hostPort ? hostPort[1] : trimmed.split('/')[0]).toLowerCase();
}

const make = (domain: Action['domain'], scope: string | null, verb: Action['verb']): Action => ({
  domain,
  scope,
  verb,
  text: `${domain}:${scope ?? '?'}:${verb}`,
});

export function actionOf(event: Pick<ScoredEvent, 'actionType' | 'toolName' | 'arguments'>): Action {
  const first = event.arguments.find((a) => a.trim() !== '') ?? null;
  switch (event.actionType) {
    case 'PROCESS_EXEC': {
      const mcp = event.toolName ? MCP_TOOL.exec(event.toolName) : null;
      if (mcp) return make('mcp', `${mcp[1] ?? mcp[3]}.${mcp[2] ?? mcp[4]}`, 'call');
      return make('process', event.toolName || null, 'exec');
    }
    case 'FILE_READ':
    case 'FILE_WRITE':
    case 'FILE_DELETE':
      // The path is the first argument; a daemon that sends none may have put it in tool_name.
      return make('file', first ?? (event.toolName || null), FILE_VERBS[event.actionType]);
    case 'NETWORK_CONNECT': {
      const target = first ?? event.toolName;
      return make('network', target ? hostOf(target) : null, 'connect');
    }
  }
}
