import { createHash } from 'node:crypto';
import { AuthorizationRequest } from './domain/authorization-request';
import { DEV_OIDC_PATH } from './request-origin';

/** What a console's sign-in page asks for, besides the user. */
export interface SignInForm {
  /** The console it signs into, in the page's introduction. */
  console: string;
  /** Quick picks, the first one checked. */
  users: string[];
  choice: {
    /** The form field's name. */
    name: string;
    /** The select's label, or the radio group's legend. */
    label: string;
    control: 'select' | 'radio';
    /** The first option is selected. */
    options: { value: string; label: string }[];
  };
}

// The one style block; the page's policy allows exactly this text by its hash, and no script at all.
const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1a1b1e}' +
  'main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}' +
  'fieldset{border:1px solid #ccd;border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem 1rem}' +
  'label{display:inline-block;margin:.25rem 0}input[type=email],select{display:block;width:100%;padding:.4rem;font:inherit}' +
  '.hint{font-size:.875rem;color:#555;margin:.25rem 0 0}.error{color:#a00;font-weight:600}' +
  'button{font:inherit;padding:.5rem 1.25rem;border:0;border-radius:6px;background:#1c7ed6;color:#fff;cursor:pointer}';

export const SIGN_IN_PAGE_POLICY =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>\n`;

const radio = (id: string, name: string, value: string, label: string, checked: boolean) =>
  `<div><input type="radio" id="${id}" name="${escapeHtml(name)}" value="${escapeHtml(value)}"${checked ? ' checked' : ''}> ` +
  `<label for="${id}">${escapeHtml(label)}</label></div>`;

function choiceControl({ name, label, control, options }: SignInForm['choice']): string {
  if (control === 'radio') {
    const radios = options.map((o, i) => radio(`${escapeHtml(name)}-${i}`, name, o.value, o.label, i === 0)).join('');
    return `<fieldset><legend>${escapeHtml(label)}</legend>${radios}</fieldset>`;
  }
  const items = options.map((o) => `<option value="${escapeHtml(o.value)}">${escapeHtml(o.label)}</option>`).join('');
  return `<p><label for="${escapeHtml(name)}">${escapeHtml(label)}</label><select id="${escapeHtml(name)}" name="${escapeHtml(name)}">${items}</select></p>`;
}

/** The sign-in page: a plain form posting back to /oidc/authorize with the request's parameters. */
export function signInPage(form: SignInForm, request: AuthorizationRequest, error?: string): string {
  const hidden = {
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    response_type: 'code',
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    state: request.state,
    scope: request.scope,
    nonce: request.nonce,
  };
  const fields = Object.entries(hidden)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value as string)}">`)
    .join('');
  const users = form.users.map((user, i) => radio(`user-${i}`, 'user', user, user, i === 0)).join('');
  return page(
    `Sign in — ${form.console}`,
    `<h1>Sign in</h1><p>Development identity provider of the ${escapeHtml(form.console)}: it signs in whoever you say, ` +
      'and runs only while no real identity provider is configured.</p>' +
      (error ? `<p role="alert" class="error">${escapeHtml(error)}</p>` : '') +
      `<form method="post" action="${DEV_OIDC_PATH}/authorize">${fields}` +
      `<fieldset><legend>User</legend>${users}` +
      '<p><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" ' +
      'placeholder="someone@example.com" aria-describedby="email-hint"></p>' +
      '<p id="email-hint" class="hint">Another user: an email typed here is used instead of the user picked above.</p>' +
      `</fieldset>${choiceControl(form.choice)}<button type="submit">Sign in</button></form>`,
  );
}

/** Why an authorization request cannot even be answered by a redirect (unknown client or redirect URI). */
export function refusalPage(message: string): string {
  return page(
    'Sign-in request refused',
    `<h1>Sign-in request refused</h1><p role="alert" class="error">${escapeHtml(message)}</p>`,
  );
}
