import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import {
  ADMIN_TEXTS,
  CERTIFICATE_TEXTS,
  LISTS_TEXTS,
  OPTIONS_TEXTS,
  PLAN_TEXTS,
  SERVER_TEXTS,
  SERVERS_TEXTS,
  SETTINGS_TEXTS,
  type TCatalogLoader,
} from '@/lib/i18n';
import { catalog as enAdmin } from '@/locales/en-admin';
import { catalog as en } from '@/locales/en-catalog';
import { catalog as enCertificate } from '@/locales/en-certificate';
import { catalog as enLists } from '@/locales/en-lists';
import { catalog as enOptions } from '@/locales/en-options';
import { catalog as enPlan } from '@/locales/en-plan';
import { catalog as enServer } from '@/locales/en-server';
import { catalog as enServers } from '@/locales/en-servers';
import { catalog as enSettings } from '@/locales/en-settings';
import { catalog as esAdmin } from '@/locales/es-admin';
import { catalog as es } from '@/locales/es-catalog';
import { catalog as esCertificate } from '@/locales/es-certificate';
import { catalog as esLists } from '@/locales/es-lists';
import { catalog as esOptions } from '@/locales/es-options';
import { catalog as esPlan } from '@/locales/es-plan';
import { catalog as esServer } from '@/locales/es-server';
import { catalog as esServers } from '@/locales/es-servers';
import { catalog as esSettings } from '@/locales/es-settings';

const screen = { en, es };
const server = { en: enServer, es: esServer };
const certificate = { en: enCertificate, es: esCertificate };
const settings = { en: enSettings, es: esSettings };
const plan = { en: enPlan, es: esPlan };
const options = { en: enOptions, es: esOptions };
const lists = { en: enLists, es: esLists };
const servers = { en: enServers, es: esServers };
const admin = { en: enAdmin, es: esAdmin };
const byNamespace = {
  [OPTIONS_TEXTS]: options,
  [SERVER_TEXTS]: server,
  [CERTIFICATE_TEXTS]: certificate,
  [SETTINGS_TEXTS]: settings,
  [PLAN_TEXTS]: plan,
  [LISTS_TEXTS]: lists,
  [SERVERS_TEXTS]: servers,
  [ADMIN_TEXTS]: admin,
  translation: screen,
};

/** Every catalog at hand: an i18n instance made with it is ready as soon as it is created. */
export const loadCatalogNow: TCatalogLoader = (language, namespace) =>
  byNamespace[namespace][language];

type TCatalog = { [key: string]: string | TCatalog };
const shared = { en: sharedEn as TCatalog, es: sharedEs as TCatalog };

/** A sentence of the shared catalog (what the server says too), by its dotted key. */
export function sharedText(lang: 'en' | 'es', key: string): string {
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as TCatalog)[part], shared[lang]);
  if (typeof value !== 'string') throw new Error(`missing ${key}`);
  return value;
}
