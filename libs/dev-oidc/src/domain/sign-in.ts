import { Params, single } from './params';

/** What the sign-in page offers: quick-pick users, and the one choice the console's tokens carry. */
export interface SignInChoices {
  users: string[];
  /** The form field of the choice (organization, role) and the values it may take ('' for none). */
  choice: { name: string; values: string[] };
}

export interface SignedIn {
  /** The subject of both tokens. */
  email: string;
  /** The chosen value: an organization id ('' for none), a role. */
  choice: string;
}

export type SignInCheck = { kind: 'valid'; user: SignedIn } | { kind: 'invalid'; message: string };

const EMAIL = /^[^\s@"<>]{1,64}@[^\s@"<>]{1,190}$/;

/** The sign-in form's answer: a typed email wins over the picked user, the choice must be one offered. */
export function checkSignIn(params: Params, choices: SignInChoices): SignInCheck {
  const typed = single(params, 'email');
  const picked = single(params, 'user');
  const choice = params[choices.choice.name];
  if (typed.repeated || picked.repeated || Array.isArray(choice)) {
    return { kind: 'invalid', message: 'The form was sent with a field repeated.' };
  }
  const email = typed.value?.trim() || picked.value;
  if (email === undefined) return { kind: 'invalid', message: 'Pick a user or enter an email.' };
  if (typed.value?.trim() ? !EMAIL.test(email) : !choices.users.includes(email)) {
    return { kind: 'invalid', message: 'Email: enter an address such as someone@example.com.' };
  }
  if (!choices.choice.values.includes(choice ?? '')) {
    return { kind: 'invalid', message: `Pick one of the offered values for ${choices.choice.name}.` };
  }
  return { kind: 'valid', user: { email: email.toLowerCase(), choice: choice ?? '' } };
}
