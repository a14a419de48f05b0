import { onOrigin, Params, single } from './params';

/**
 * Where RP-initiated logout sends the browser: the client's post_logout_redirect_uri (with its state)
 * when it is a URL of this console, else the console's root, so the provider is never an open redirect.
 */
export function endSessionTarget(params: Params, origin: string): string {
  const target = single(params, 'post_logout_redirect_uri').value;
  if (target === undefined || !onOrigin(target, origin)) return `${origin}/`;
  const url = new URL(target);
  const state = single(params, 'state').value;
  if (state !== undefined) url.searchParams.set('state', state);
  return url.toString();
}
