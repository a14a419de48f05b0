import { TenantData } from '@agentwatch/cells';
import { Queryable } from '@agentwatch/db';
import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { Cursor, toPage } from '../shared/pagination';
import { readQuery } from '../shared/query-params';
import { ListStreamer } from '../shared/streamed-list';
import { AgentPage, AgentRow, toAgentView } from './agent-view';

const agentsAfter = (orgId: string) => (q: Queryable, after: Cursor | null, limit: number) =>
  q.query(
    `SELECT a.id, s.platform, s.signing_id, a.first_seen, a.last_seen
       FROM agents a LEFT JOIN sessions s ON s.org_id = a.org_id AND s.id = a.last_session_id
      WHERE a.org_id = $1 AND ($2::timestamptz IS NULL OR (a.last_seen, a.id) < ($2::timestamptz, $3::text))
      ORDER BY a.last_seen DESC, a.id DESC LIMIT $4`,
    [orgId, after?.at ?? null, after?.id ?? null, limit],
  ) as Promise<AgentRow[]>;

const cursorOf = (row: AgentRow): Cursor => ({ at: row.last_seen, id: row.id });

/**
 * GET /v1/agents: agents seen in the caller's events, most recently seen first. With `limit` or
 * `cursor` one keyset page; without them every agent, streamed (the spec answers the full list).
 */
export class ListAgents extends Query<AgentPage | StreamableFile> {
  constructor(
    readonly orgId: string,
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(ListAgents)
export class ListAgentsHandler implements IQueryHandler<ListAgents> {
  constructor(
    private readonly db: TenantData,
    private readonly streamer: ListStreamer,
  ) {}

  execute({ orgId, query }: ListAgents) {
    const { page } = readQuery(z.object({}), query, 'text');
    if (query.limit === undefined && query.cursor === undefined) {
      return this.streamer.open(orgId, { key: 'agents', chunk: agentsAfter(orgId), cursorOf, view: toAgentView });
    }
    return this.db.run(orgId, async (q) => {
      const rows = await agentsAfter(orgId)(q, page.after, page.limit + 1);
      const { items, next_cursor } = toPage(rows, page.limit, cursorOf);
      return { agents: items.map(toAgentView), next_cursor };
    });
  }
}
