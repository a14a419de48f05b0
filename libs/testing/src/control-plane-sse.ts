export interface SseEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

export interface SseClient {
  events: SseEvent[];
  comments: string[];
  headers: Headers | null;
  close(): void;
  done: Promise<void>;
}

/** A plain SSE reader over fetch, as a browser or `curl -N` would read the stream. */
export function openSse(url: string, token: string, lastEventId?: string): SseClient {
  const controller = new AbortController();
  const client: SseClient = {
    events: [],
    comments: [],
    headers: null,
    close: () => controller.abort(),
    done: Promise.resolve(),
  };
  client.done = (async () => {
    try {
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: controller.signal,
      });
      client.headers = response.headers;
      if (!response.body) return;
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) client.comments.push(line.slice(1).trim());
            else {
              const i = line.indexOf(':');
              if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1).replace(/^ /, '');
            }
          }
          if (fields.data !== undefined) {
            client.events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error;
    }
  })();
  return client;
}
