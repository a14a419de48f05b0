interface WithHeaders {
  headers: Record<string, string | string[] | undefined>;
}

export function headerValue(request: WithHeaders, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `Authorization: Bearer <credential>`, one credential and nothing after it; null for anything else. */
export function bearerCredential(request: WithHeaders): string | null {
  const header = headerValue(request, 'authorization');
  return header ? (/^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null) : null;
}
