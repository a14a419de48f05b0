import type { ActionType, EventIngestItem, SessionIngestRecord } from '@agentwatch/contracts';
import type { Rng } from './prng';
import {
  ACTION_MIX,
  AGENTS,
  COMMANDS,
  DECISION_MIX,
  HOSTS,
  MODELS,
  PLATFORMS,
  PROJECT_FILES,
  RISKY_COMMANDS,
  SENSITIVE_FILES,
  TOOLS,
} from './vocabulary';

export type FleetItem = EventIngestItem | SessionIngestRecord;

interface OpenSession {
  id: string;
  parentId?: string;
  remaining: number;
}

/**
 * One daemon's endless activity: a root agent session that now and then spawns a sub-session (a
 * child with `parent_id`), goes idle, and ends, followed by the next root session. Time is virtual
 * (a per-daemon clock advancing a few ms to a few hundred ms per item), so output is a pure function
 * of the seed and the start time.
 */
export class DaemonActivity {
  private clock: number;
  private readonly stack: OpenSession[] = [];
  private readonly agent: string;
  private readonly platform: string;
  private readonly repo: string;
  private seq = 0;
  readonly sessionIds: string[] = [];

  constructor(
    private readonly random: Rng,
    private readonly machineId: string,
    startMs: number,
    private readonly eventIds: boolean,
  ) {
    this.clock = startMs;
    this.agent = random.pick(AGENTS);
    this.platform = random.pick(PLATFORMS);
    this.repo = `~/src/${random.pick(['api', 'web', 'infra', 'ml', 'cli'])}-${random.int(1, 40)}`;
  }

  next(): FleetItem {
    this.clock += this.random.int(2, 120);
    const top = this.stack[this.stack.length - 1];
    if (!top) return this.open();
    if (top.remaining <= 0) return this.close();
    top.remaining--;
    if (!top.parentId && this.random.chance(0.01)) return this.open(top.id);
    if (this.random.chance(0.003)) return this.lifecycle(top, 'idle');
    return this.event(top.id);
  }

  private timestamp = () => new Date(this.clock).toISOString();

  private open(parentId?: string): FleetItem {
    const id = this.random.uuid();
    this.sessionIds.push(id);
    this.stack.push({ id, parentId, remaining: parentId ? this.random.int(5, 60) : this.random.int(50, 400) });
    return {
      session_id: id,
      state: 'active',
      timestamp: this.timestamp(),
      session_name: parentId ? `subagent: ${this.random.pick(['explore', 'test-runner', 'reviewer'])}` : this.repo,
      model: this.random.pick(MODELS),
      signing_id: `com.${this.agent}.cli`,
      platform: this.platform,
      ...(parentId ? { parent_id: parentId } : {}),
    };
  }

  private close(): FleetItem {
    const done = this.stack.pop() as OpenSession;
    return this.lifecycle(done, 'ended');
  }

  private lifecycle(session: OpenSession, state: 'idle' | 'ended'): SessionIngestRecord {
    return {
      session_id: session.id,
      state,
      timestamp: this.timestamp(),
      ...(session.parentId ? { parent_id: session.parentId } : {}),
    };
  }

  private event(sessionId: string): EventIngestItem {
    const actionType = this.random.weighted(ACTION_MIX);
    const decision = this.random.weighted(DECISION_MIX);
    this.seq++;
    return {
      ...(this.eventIds ? { event_id: `${this.machineId}-${this.seq}` } : {}),
      action_type: actionType,
      timestamp: this.timestamp(),
      tool_name: this.random.pick(TOOLS[actionType]),
      arguments: this.argumentsOf(actionType),
      session_id: sessionId,
      agent_id: this.agent,
      ...(decision ? { decision } : {}),
    };
  }

  private file(sensitiveShare: number) {
    return this.random.chance(sensitiveShare)
      ? this.random.pick(SENSITIVE_FILES)
      : `${this.repo}/${this.random.pick(PROJECT_FILES)}`;
  }

  private argumentsOf(actionType: ActionType): string[] {
    switch (actionType) {
      case 'FILE_READ':
        return [this.file(0.05)];
      case 'FILE_WRITE':
        return [this.file(0.01), `${this.random.int(20, 4000)} bytes`];
      case 'FILE_DELETE':
        return [this.file(0.01)];
      case 'NETWORK_CONNECT':
        return [this.random.pick(HOSTS)];
      case 'PROCESS_EXEC':
        return ['-c', this.random.chance(0.02) ? this.random.pick(RISKY_COMMANDS) : this.random.pick(COMMANDS)];
    }
  }
}
