import sharedEn from '@portico/shared/locales/en.json';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import { catalog as enAdmin } from './en-admin';
import { catalog as enLanding } from './en-catalog';
import { catalog as enCertificate } from './en-certificate';
import { catalog as enLists } from './en-lists';
import { catalog as enOptions } from './en-options';
import { catalog as enPlan } from './en-plan';
import { catalog as enServers } from './en-servers';
import { catalog as enSettings } from './en-settings';
import es from './es.json';
import { catalog as esAdmin } from './es-admin';
import { catalog as esLanding } from './es-catalog';
import { catalog as esCertificate } from './es-certificate';
import { catalog as esLists } from './es-lists';
import { catalog as esOptions } from './es-options';
import { catalog as esPlan } from './es-plan';
import { catalog as esServers } from './es-servers';
import { catalog as esSettings } from './es-settings';

type TCatalog = { [key: string]: string | TCatalog };

function keys(catalog: TCatalog, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}

describe('web catalogs', () => {
  it('have the same keys in English and Spanish', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('have no empty text', () => {
    for (const catalog of [en, es]) {
      const empty = keys(catalog).filter((k) => {
        const value = k.split('.').reduce<unknown>((n, p) => (n as TCatalog)[p], catalog);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(empty).toEqual([]);
    }
  });

  it('do not overwrite the shared catalogs when merged', () => {
    const sharedTop = Object.keys(sharedEn);
    expect(Object.keys(en).filter((k) => sharedTop.includes(k))).toEqual([]);
  });

  it('split into the first catalog and the certificate, settings, plan, options, lists, servers and admin namespaces, every group in one of them', () => {
    for (const [web, first, certificate, settings, plan, options, lists, servers, admin] of [
      [en, enLanding, enCertificate, enSettings, enPlan, enOptions, enLists, enServers, enAdmin],
      [es, esLanding, esCertificate, esSettings, esPlan, esOptions, esLists, esServers, esAdmin],
    ] as const) {
      for (const group of [
        'certificate',
        'settings',
        'plan',
        'options',
        'lists',
        'servers',
        'admin',
      ]) {
        expect(Object.keys(first)).not.toContain(group);
      }
      expect({
        ...first,
        ...certificate,
        ...settings,
        ...plan,
        ...options,
        ...lists,
        ...servers,
        ...admin,
      }).toMatchObject(web);
      expect(certificate).toEqual({ certificate: web.certificate });
      expect(settings).toEqual({ settings: web.settings });
      expect(plan).toEqual({ plan: web.plan });
      expect(options).toEqual({ options: web.options });
      expect(lists).toEqual({ lists: web.lists });
      expect(servers).toEqual({ servers: web.servers });
      expect(admin).toEqual({ admin: web.admin });
    }
  });
});
