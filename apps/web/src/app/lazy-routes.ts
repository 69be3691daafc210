import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { loadServerTexts } from '@/lib/i18n';

/**
 * The screens behind sign-in, each fetched the first time it shows (the router wraps them in
 * one Suspense): the landing page's JavaScript holds none of them.
 */
function lazyNamed<P, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

/** A screen that shows deployment logs and failures: it arrives with the server's sentences. */
async function withServerTexts<M>(load: () => Promise<M>): Promise<M> {
  const [module] = await Promise.all([load(), loadServerTexts()]);
  return module;
}

export const HomeRoute = lazyNamed(() => import('./routes/home-route'), 'HomeRoute');
export const ProxyDetailsPage = lazyNamed(
  () => withServerTexts(() => import('@/features/proxies/components/proxy-details-page')),
  'ProxyDetailsPage',
);
export const ProxyWizardPage = lazyNamed(
  () => withServerTexts(() => import('@/features/wizard/components/proxy-wizard-page')),
  'ProxyWizardPage',
);
export const AuditPage = lazyNamed(
  () => import('@/features/admin/components/audit-page'),
  'AuditPage',
);
export const UsersPage = lazyNamed(
  () => import('@/features/admin/components/users-page'),
  'UsersPage',
);
export const DestinationsPage = lazyNamed(
  () => import('@/features/admin/components/destinations-page'),
  'DestinationsPage',
);
export const CertificatesPage = lazyNamed(
  () => import('@/features/admin/components/certificates-page'),
  'CertificatesPage',
);
export const SettingsPage = lazyNamed(
  () => import('@/features/settings/components/settings-page'),
  'SettingsPage',
);
export const TwoFactorRequiredPage = lazyNamed(
  () => import('@/features/settings/components/two-factor-required-page'),
  'TwoFactorRequiredPage',
);
