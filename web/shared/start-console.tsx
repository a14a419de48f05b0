import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Alert, Button, Center, Loader, MantineProvider, Stack, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ReactNode, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Outlet, RouteObject, RouterProvider, useNavigate } from 'react-router';
import { AuthProvider, useAuth, userManagerFor } from './auth';
import { loadSettings } from './settings';
import { contrastVariables, theme } from './theme';

/**
 * Mounts a console: its settings from its server, the sign-in, the query cache and the router. Every
 * route in `routes` needs a signed-in user; `/callback` and `/signed-out` do not.
 */
export async function startConsole(title: string, routes: RouteObject[], shell: (outlet: ReactNode) => ReactNode) {
  const root = createRoot(document.getElementById('root')!);
  try {
    const settings = await loadSettings();
    const manager = userManagerFor(settings);
    const queries = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
    const router = createBrowserRouter([
      { path: settings.redirect_path, element: <Callback /> },
      { path: '/signed-out', element: <SignedOut title={title} /> },
      { element: <RequireSignIn>{shell(<Outlet />)}</RequireSignIn>, children: routes },
    ]);
    root.render(
      <StrictMode>
        <MantineProvider theme={theme} cssVariablesResolver={contrastVariables}>
          <Notifications />
          <AuthProvider manager={manager}>
            <QueryClientProvider client={queries}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </AuthProvider>
        </MantineProvider>
      </StrictMode>,
    );
  } catch (error) {
    root.render(<p role="alert">{String(error)}</p>);
  }
}

function RequireSignIn({ children }: { children: ReactNode }) {
  const { user, signingOut, signIn } = useAuth();
  useEffect(() => {
    if (!user && !signingOut) void signIn();
  }, [user, signingOut, signIn]);
  if (signingOut) return <Waiting label="Signing out…" />;
  if (!user) return <Waiting label="Signing in…" />;
  return children;
}

let exchange: Promise<string> | undefined;

function Callback() {
  const { completeSignIn } = useAuth();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    // The code is single-use and StrictMode runs effects twice in development: exchange it once.
    exchange ??= completeSignIn();
    exchange
      .then((returnTo) => navigate(returnTo, { replace: true }))
      .catch((error: unknown) => setFailure(String(error)));
  }, [completeSignIn, navigate]);
  if (failure)
    return (
      <Center h="100vh">
        <Alert color="red" title="Sign-in failed">
          {failure} <a href="/">Try again</a>
        </Alert>
      </Center>
    );
  return <Waiting label="Completing sign-in…" />;
}

function SignedOut({ title }: { title: string }) {
  return (
    <Center h="100vh">
      <Stack align="center">
        <Title order={1} size="h3">
          {title}
        </Title>
        <Text>You are signed out.</Text>
        <Button component="a" href="/">
          Sign in
        </Button>
      </Stack>
    </Center>
  );
}

export function Waiting({ label }: { label: string }) {
  return (
    <Center h="50vh" role="status" aria-live="polite">
      <Loader aria-hidden />
      <Text ml="sm">{label}</Text>
    </Center>
  );
}
