import { useTranslation } from 'react-i18next';
import {
  ADMIN_TEXTS,
  CERTIFICATE_TEXTS,
  LISTS_TEXTS,
  OPTIONS_TEXTS,
  PLAN_TEXTS,
  SERVER_TEXTS,
  SERVERS_TEXTS,
  SETTINGS_TEXTS,
} from './i18n';

// One `t` for a component that shows both: a key is looked up in the screen texts, then in the
// group's namespace. Constants, so react-i18next keeps the same `t` between renders.
const CERTIFICATE = ['translation', CERTIFICATE_TEXTS];
const SETTINGS = ['translation', SETTINGS_TEXTS];
const PLAN = ['translation', PLAN_TEXTS];
const LISTS = ['translation', LISTS_TEXTS];
// The servers' screens also show the server's sentences (key problems, an action's report).
const SERVERS = ['translation', SERVERS_TEXTS, SERVER_TEXTS];
const ADMIN = ['translation', ADMIN_TEXTS];
const OPTIONS = { nsMode: 'fallback' } as const;

/**
 * useTranslation for a component that shows `certificate.*` texts. The route that shows it
 * loads them first (app/lazy-routes.ts); should they be missing anyway (a language switch whose
 * chunk is still on its way), the component suspends until they are there instead of showing
 * keys.
 */
export function useCertificateTexts() {
  return useTranslation(CERTIFICATE, OPTIONS);
}

/** The same for a component that shows `settings.*` texts. */
export function useSettingsTexts() {
  return useTranslation(SETTINGS, OPTIONS);
}

/** The same for a component that shows `plan.*` texts. */
export function usePlanTexts() {
  return useTranslation(PLAN, OPTIONS);
}

/**
 * The same for a component that shows `options.*` texts; the shared catalog (SERVER_TEXTS) after
 * them holds the options' field messages (`proxyOptions.invalid.*`).
 */
const PROXY_OPTIONS = ['translation', OPTIONS_TEXTS, SERVER_TEXTS];
export function useOptionsTexts() {
  return useTranslation(PROXY_OPTIONS, OPTIONS);
}

/** The same for a component that shows `lists.*` texts (a list in pages). */
export function useListTexts() {
  return useTranslation(LISTS, OPTIONS);
}

/** The same for a component that shows `servers.*` texts (and the server's sentences). */
export function useServersTexts() {
  return useTranslation(SERVERS, OPTIONS);
}

/** The same for a component of the admin panel (`admin.*` texts). */
export function useAdminTexts() {
  return useTranslation(ADMIN, OPTIONS);
}

/** The admin's certificates page: its `certificate.*` texts and the panel's `admin.*` ones. */
const ADMIN_CERTIFICATES = ['translation', CERTIFICATE_TEXTS, ADMIN_TEXTS];
export function useAdminCertificateTexts() {
  return useTranslation(ADMIN_CERTIFICATES, OPTIONS);
}

/** A list in pages of the admin panel: `lists.*` and `admin.*` texts. */
const ADMIN_LISTS = ['translation', LISTS_TEXTS, ADMIN_TEXTS];
export function useAdminListTexts() {
  return useTranslation(ADMIN_LISTS, OPTIONS);
}
