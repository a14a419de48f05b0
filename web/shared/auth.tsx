import { InMemoryWebStorage, User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ConsoleSettings } from './settings';

/**
 * OIDC authorization code with PKCE. Tokens live in memory only (InMemoryWebStorage): a reload signs
 * in again. Only the transient sign-in state (the PKCE verifier, the page to return to) crosses the
 * redirect, in sessionStorage, and oidc-client-ts removes it once the callback has used it.
 */
export function userManagerFor(settings: ConsoleSettings): UserManager {
  return new UserManager({
    authority: settings.issuer,
    client_id: settings.client_id,
    redirect_uri: `${window.location.origin}${settings.redirect_path}`,
    post_logout_redirect_uri: `${window.location.origin}/signed-out`,
    response_type: 'code',
    scope: settings.scope,
    loadUserInfo: false,
    automaticSilentRenew: false,
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
}

interface Auth {
  user: User | null;
  /** Signing out: the user is gone on purpose, so no view sends the browser to sign in again. */
  signingOut: boolean;
  /** The access token the APIs verify. */
  token: string;
  /** Sends the browser to the identity provider, coming back to `returnTo` (a path of this console). */
  signIn(returnTo?: string): Promise<void>;
  signOut(): Promise<void>;
  /** Work to do before the tokens are dropped (the product console revokes its session key). */
  onSignOut(task: () => Promise<void>): () => void;
  /** Completes the code exchange on the callback page; answers the path to return to. */
  completeSignIn(): Promise<string>;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ manager, children }: { manager: UserManager; children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [signingOut, setSigningOut] = useState(false);
  const [tasks] = useState(() => new Set<() => Promise<void>>());

  useEffect(() => {
    const loaded = (next: User) => setUser(next);
    const gone = () => setUser(null);
    manager.events.addUserLoaded(loaded);
    manager.events.addUserUnloaded(gone);
    manager.events.addAccessTokenExpired(gone);
    return () => {
      manager.events.removeUserLoaded(loaded);
      manager.events.removeUserUnloaded(gone);
      manager.events.removeAccessTokenExpired(gone);
    };
  }, [manager]);

  const signIn = useCallback(
    (returnTo = window.location.pathname + window.location.search) => manager.signinRedirect({ state: { returnTo } }),
    [manager],
  );

  const signOut = useCallback(async () => {
    setSigningOut(true);
    await Promise.allSettled([...tasks].map((task) => task()));
    const endSession = (await manager.metadataService.getMetadata()).end_session_endpoint;
    const idToken = user?.id_token;
    await manager.removeUser();
    if (endSession) await manager.signoutRedirect({ id_token_hint: idToken });
    else window.location.assign('/signed-out');
  }, [manager, tasks, user]);

  const onSignOut = useCallback(
    (task: () => Promise<void>) => {
      tasks.add(task);
      return () => void tasks.delete(task);
    },
    [tasks],
  );

  const completeSignIn = useCallback(async () => {
    const signedIn = await manager.signinRedirectCallback();
    setUser(signedIn);
    const returnTo = (signedIn.state as { returnTo?: string } | undefined)?.returnTo;
    // Only paths of this console: never an absolute URL smuggled into the state.
    return returnTo?.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/';
  }, [manager]);

  const value = useMemo<Auth>(
    () => ({ user, signingOut, token: user?.access_token ?? '', signIn, signOut, onSignOut, completeSignIn }),
    [user, signingOut, signIn, signOut, onSignOut, completeSignIn],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

/** The signed-in user's display name: the id token's email, else its name, else its subject. */
export function displayName(user: User | null): string {
  const profile = user?.profile;
  return String(profile?.email ?? profile?.name ?? profile?.sub ?? '');
}
