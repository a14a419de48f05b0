import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface FakeLlm {
  url: string;
  /** Bodies of the chat-completion requests received, in order. */
  requests: { messages: { role: string; content: string }[] }[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat-completions endpoint over real HTTP. It answers `{"score": N}`, N taken
 * from the first `llm-score=N` in the prompt (default 80); a prompt containing `llm-slow` is answered
 * after `slowMs`, past the worker's timeout; one containing `llm-fail` gets a 500.
 */
export async function startFakeLlm(slowMs = 5000): Promise<FakeLlm> {
  const requests: FakeLlm['requests'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'fake' }] }));
        return;
      }
      const body = JSON.parse(raw);
      requests.push(body);
      const prompt = body.messages.map((m: { content: string }) => m.content).join('\n');
      const score = Number(/llm-score=(\d+)/.exec(prompt)?.[1] ?? 80);
      const answer = () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            choices: [{ message: { role: 'assistant', content: `{"score": ${score}, "reasoning": "fake"}` } }],
          }),
        );
      if (prompt.includes('llm-fail')) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
      } else if (prompt.includes('llm-slow')) setTimeout(answer, slowMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
