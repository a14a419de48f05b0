import createClient, { Client } from 'openapi-fetch';

/** An error answer of one of the APIs: `{error}`, with `detail` (control plane) or `details` (cloud API). */
export interface ErrorBody {
  error: string;
  detail?: string;
  details?: { index?: number; path?: string; message: string }[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.detail ? `${body.error}: ${body.detail}` : body.error);
  }
}

/**
 * A typed client of one API behind this console's same-origin proxy (`/api/<name>`). `headers` is read
 * on every request, so a renewed token or key is used at once; a 401 or 403 calls `onDenied` (sign in
 * again) before the caller sees the error.
 */
export function apiClient<Paths extends {}>(
  prefix: string,
  headers: () => Record<string, string>,
  onDenied: (status: number) => void = () => {},
): Client<Paths> {
  const client = createClient<Paths>({ baseUrl: `${window.location.origin}${prefix}` });
  client.use({
    onRequest({ request }) {
      for (const [name, value] of Object.entries(headers())) request.headers.set(name, value);
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401 || response.status === 403) onDenied(response.status);
      return response;
    },
  });
  return client;
}

/** The body of a 2xx answer, or an ApiError with the API's own message. */
export async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const body = (error && typeof error === 'object' ? error : { error: response.statusText }) as ErrorBody;
    throw new ApiError(response.status, body);
  }
  return data as T;
}
