import { TenantData } from '@agentwatch/cells';
import { ListStreamer } from '../shared/streamed-list';
import { AgentRow, agentPage, agentView, toAgentView } from './agent-view';
import { ListAgents, ListAgentsHandler } from './list-agents';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const row: AgentRow = {
  id: 'claude-code',
  platform: null,
  signing_id: null,
  first_seen: new Date('2026-10-01T08:00:00.000Z'),
  last_seen: new Date('2026-10-01T09:00:00.000Z'),
};

describe('the documented agent answers', () => {
  it('an agent without a session reads as the agent view', () => {
    expect(agentView.parse(toAgentView(row))).toEqual(toAgentView(row));
  });

  it('GET /v1/agents?limit=, a page with a cursor to the next', async () => {
    const rows = [row, { ...row, id: 'codex', platform: 'darwin', signing_id: 'com.openai.codex' }];
    const data = { run: (_: string, work: (q: unknown) => unknown) => work({ query: async () => rows }) };
    const handler = new ListAgentsHandler(data as unknown as TenantData, {} as ListStreamer);
    const page = await handler.execute(new ListAgents(ORG, { limit: '1' }));
    expect(agentPage.parse(page)).toEqual(page);
  });
});
