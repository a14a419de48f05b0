import { gzipSync } from 'node:zlib';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A real HTTP call with the built-in fetch; the body is parsed as JSON when it is JSON. */
export async function call<T = Record<string, unknown>>(
  url: string,
  {
    method = 'GET',
    token,
    body,
    raw,
    gzip = false,
    headers = {},
  }: {
    method?: string;
    token?: string;
    body?: unknown;
    raw?: string;
    gzip?: boolean;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer<T>> {
  const text = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const response = await fetch(url, {
    method,
    headers: {
      ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: text === undefined ? undefined : gzip ? gzipSync(text) : text,
  });
  const received = await response.text();
  let parsed: unknown = received;
  try {
    parsed = JSON.parse(received);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
