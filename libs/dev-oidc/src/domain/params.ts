/** Query or form parameters as Fastify parses them: a repeated name arrives as an array. */
export type Params = Record<string, string | string[] | undefined>;

/** An OAuth error answer (RFC 6749 §4.1.2.1, §5.2). */
export interface OAuthError {
  error: string;
  error_description: string;
}

export const oauthError = (error: string, description: string): OAuthError => ({
  error,
  error_description: description,
});

/**
 * One parameter's single value: undefined when absent or empty, an error when repeated (RFC 6749 §3.1
 * and §3.2: parameters must not be included more than once).
 */
export function single(params: Params, name: string): { value?: string; repeated?: true } {
  const raw = params[name];
  if (Array.isArray(raw)) return { repeated: true };
  return { value: raw === '' ? undefined : raw };
}

/** Whether a URL is on the given origin (scheme, host and port), so redirects never leave this console. */
export function onOrigin(url: string, origin: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.origin === origin && parsed.username === '' && parsed.password === '';
}
