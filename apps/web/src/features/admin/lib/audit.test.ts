import { AUDIT_ACTIONS, auditActionKey } from '@portico/shared/admin/audit-actions';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { auditActionText, auditTargetText, auditValueText } from './audit';

// A t() over one catalog, as the page's own would read it.
function tOf(catalog: unknown) {
  return ((key: string) =>
    key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], catalog) ??
    key) as unknown as Parameters<typeof auditActionText>[1];
}

describe('audit words', () => {
  it('has words in English and Spanish for every action the server writes', () => {
    const missing: string[] = [];
    for (const [language, catalog] of [
      ['en', en],
      ['es', es],
    ] as const) {
      const words = catalog.admin.audit.actions as Record<string, string>;
      for (const action of AUDIT_ACTIONS) {
        if (!words[auditActionKey(action)]) missing.push(`${language}: ${action}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('words the take-over and saved-server actions in the reader language, never as identifiers', () => {
    expect(auditActionText('proxy.convert', tOf(es))).toBe(
      'convirtió a la configuración de Portico',
    );
    expect(auditActionText('ssh_server.scan', tOf(en))).toBe('scanned the sites of');
    expect(auditTargetText('ssh_server', 'abc', tOf(es), 'web-1')).toBe('el servidor web-1');
    // A failed conversion says what became of the server, in words.
    expect(auditActionText('proxy.convert_failed', tOf(en))).toBe(
      "failed to convert to Portico's configuration",
    );
    expect(auditValueText('rolled_back', tOf(es), 'outcome')).toBe(
      'deshecha: cada archivo volvió a estar como estaba',
    );
    expect(auditValueText('refused', tOf(en), 'outcome')).toBe(
      'refused: nothing was written on the server',
    );
    // An action of no known kind (a newer server's) is shown as stored, spaced.
    expect(auditActionText('proxy.something_new', tOf(en))).toBe('proxy something new');
  });
});
