import { Navigate, RouteObject } from 'react-router';
import { NotFoundView } from './views/not-found';
import { RequestTenantView } from './views/request-tenant';
import { TenantDetailView } from './views/tenant-detail';
import { TenantListView } from './views/tenant-list';

export const routes: RouteObject[] = [
  { index: true, element: <Navigate to="/tenants" replace /> },
  { path: 'tenants', element: <TenantListView /> },
  { path: 'tenants/new', element: <RequestTenantView /> },
  { path: 'tenants/:slug', element: <TenantDetailView /> },
  { path: '*', element: <NotFoundView /> },
];
