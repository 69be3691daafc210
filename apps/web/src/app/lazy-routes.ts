import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import {
  ADMIN_TEXTS,
  CERTIFICATE_TEXTS,
  LISTS_TEXTS,
  loadTexts,
  OPTIONS_TEXTS,
  PLAN_TEXTS,
  SERVER_TEXTS,
  SERVERS_TEXTS,
  SETTINGS_TEXTS,
  type TNamespace,
} from '@/lib/i18n';

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

/**
 * A screen that arrives with the texts it shows beyond the landing catalog: the server's
 * sentences (deployment logs, failures) or the certificate texts (expiry badges, the certificate
 * section). Fetched beside its code, so it never renders a key; i18next loads them again with
 * each language switch.
 */
async function withTexts<M>(load: () => Promise<M>, namespaces: TNamespace[]): Promise<M> {
  const [module] = await Promise.all([load(), ...namespaces.map((ns) => loadTexts(ns))]);
  return module;
}

export const HomeRoute = lazyNamed(
  () =>
    withTexts(
      () => import('./routes/home-route'),
      // An admin's home shows the panel (admin texts) below the own list.
      [CERTIFICATE_TEXTS, PLAN_TEXTS, LISTS_TEXTS, ADMIN_TEXTS],
    ),
  'HomeRoute',
);
export const ProxyDetailsPage = lazyNamed(
  () =>
    withTexts(
      () => import('@/features/proxies/components/proxy-details-page'),
      [SERVER_TEXTS, CERTIFICATE_TEXTS, PLAN_TEXTS, OPTIONS_TEXTS],
    ),
  'ProxyDetailsPage',
);
export const ProxyWizardPage = lazyNamed(
  () =>
    withTexts(
      () => import('@/features/wizard/components/proxy-wizard-page'),
      // The deploy step's "Show plan" shows the plan texts.
      [SERVER_TEXTS, CERTIFICATE_TEXTS, OPTIONS_TEXTS, SERVERS_TEXTS, PLAN_TEXTS],
    ),
  'ProxyWizardPage',
);
export const AuditPage = lazyNamed(
  () => withTexts(() => import('@/features/admin/components/audit-page'), [ADMIN_TEXTS]),
  'AuditPage',
);
export const UsersPage = lazyNamed(
  () =>
    withTexts(() => import('@/features/admin/components/users-page'), [LISTS_TEXTS, ADMIN_TEXTS]),
  'UsersPage',
);
export const DestinationsPage = lazyNamed(
  () => withTexts(() => import('@/features/admin/components/destinations-page'), [ADMIN_TEXTS]),
  'DestinationsPage',
);
export const CertificatesPage = lazyNamed(
  () =>
    withTexts(
      () => import('@/features/admin/components/certificates-page'),
      [CERTIFICATE_TEXTS, LISTS_TEXTS, ADMIN_TEXTS],
    ),
  'CertificatesPage',
);
export const SettingsPage = lazyNamed(
  () => withTexts(() => import('@/features/settings/components/settings-page'), [SETTINGS_TEXTS]),
  'SettingsPage',
);
export const TwoFactorRequiredPage = lazyNamed(
  () =>
    withTexts(
      () => import('@/features/settings/components/two-factor-required-page'),
      [SETTINGS_TEXTS],
    ),
  'TwoFactorRequiredPage',
);
export const ServersPage = lazyNamed(
  () =>
    withTexts(
      () => import('@/features/servers/components/servers-page'),
      [SERVERS_TEXTS, SERVER_TEXTS],
    ),
  'ServersPage',
);
export const ServerPage = lazyNamed(
  () =>
    withTexts(
      () => import('@/features/servers/components/server-page'),
      [SERVERS_TEXTS, SERVER_TEXTS, LISTS_TEXTS],
    ),
  'ServerPage',
);
