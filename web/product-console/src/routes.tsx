import { ComponentType, LazyExoticComponent, lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import type { NavItem } from '../../shared/console-frame';
import { Waiting } from '../../shared/start-console';

// Every view is its own chunk: the first page load carries the frame and the sign-in, not the views.
const Overview = lazy(() => import('./views/overview'));
const Sessions = lazy(() => import('./views/sessions'));
const Session = lazy(() => import('./views/session'));
const Events = lazy(() => import('./views/events'));
const Event = lazy(() => import('./views/event'));
const Agents = lazy(() => import('./views/agents'));
const Machines = lazy(() => import('./views/machines'));
const DeployTokens = lazy(() => import('./views/deploy-tokens'));
const ApiKeys = lazy(() => import('./views/api-keys'));
const Policy = lazy(() => import('./views/policy'));
const PolicyHistory = lazy(() => import('./views/policy-history'));
const NotFound = lazy(() => import('./views/not-found'));

const page = (View: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<Waiting label="Loading…" />}>
    <View />
  </Suspense>
);

export const routes: RouteObject[] = [
  { index: true, element: page(Overview) },
  { path: 'sessions', element: page(Sessions) },
  { path: 'sessions/:id', element: page(Session) },
  { path: 'events', element: page(Events) },
  { path: 'events/:id', element: page(Event) },
  { path: 'agents', element: page(Agents) },
  { path: 'machines', element: page(Machines) },
  { path: 'deploy-tokens', element: page(DeployTokens) },
  { path: 'api-keys', element: page(ApiKeys) },
  { path: 'policy', element: page(Policy) },
  { path: 'policy/history', element: page(PolicyHistory) },
  { path: '*', element: page(NotFound) },
];

export const NAV: NavItem[] = [
  { label: 'Overview', to: '/' },
  { label: 'Sessions', to: '/sessions' },
  { label: 'Events', to: '/events' },
  { label: 'Agents', to: '/agents' },
  { label: 'Machines', to: '/machines' },
  { label: 'Deploy tokens', to: '/deploy-tokens' },
  { label: 'API keys', to: '/api-keys' },
  { label: 'Policy', to: '/policy' },
];
