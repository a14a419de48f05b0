import { OrgScope } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { toPage } from '../shared/pagination';
import { readQuery } from '../shared/query-params';

export interface AgentView {
  id: string;
  platform: string | null;
  signing_id: string | null;
  first_seen: string;
  last_seen: string;
}

interface AgentRow extends Omit<AgentView, 'first_seen' | 'last_seen'> {
  first_seen: Date;
  last_seen: Date;
}

/** GET /v1/agents: agents seen in the caller's events, most recently seen first. */
@Injectable()
export class ListAgents {
  constructor(private readonly db: OrgScope) {}

  execute(orgId: string, query: Record<string, unknown>): Promise<{ agents: AgentView[]; next_cursor: string | null }> {
    const { page } = readQuery(z.object({}), query);
    return this.db.run(orgId, async (q) => {
      const rows: AgentRow[] = await q.query(
        `SELECT a.id, s.platform, s.signing_id, a.first_seen, a.last_seen
           FROM agents a LEFT JOIN sessions s ON s.org_id = a.org_id AND s.id = a.last_session_id
          WHERE a.org_id = $1 AND ($2::timestamptz IS NULL OR (a.last_seen, a.id) < ($2::timestamptz, $3::text))
          ORDER BY a.last_seen DESC, a.id DESC LIMIT $4`,
        [orgId, page.after?.at ?? null, page.after?.id ?? null, page.limit + 1],
      );
      const { items, next_cursor } = toPage(rows, page.limit, (r) => ({ at: r.last_seen.toISOString(), id: r.id }));
      return {
        agents: items.map((r) => ({
          id: r.id,
          platform: r.platform,
          signing_id: r.signing_id,
          first_seen: r.first_seen.toISOString(),
          last_seen: r.last_seen.toISOString(),
        })),
        next_cursor,
      };
    });
  }
}
