// The engine's own sentences exist in both catalogs, and a Spanish run speaks Spanish.
import { renderText } from '@portico/shared/i18n/text';
import { sharedCatalogs } from '@portico/shared/i18n/translate';
import { describe, expect, it } from 'vitest';
import { withOutput } from './failure';
import { msg, say } from './messages';
import { firewallAdvice } from './preflight-firewall';
import { runDeployment } from './run-deployment';
import type { TEngineContext } from './types';

type TNode = string | { [key: string]: TNode };

function leaves(node: TNode, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof node === 'string') return out.set(prefix, node);
  for (const [key, child] of Object.entries(node)) {
    for (const [k, v] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
  }
  return out;
}

const params = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('deployLog catalogs', () => {
  const en = leaves(sharedCatalogs.en.deployLog as TNode);
  const es = leaves(sharedCatalogs.es.deployLog as TNode);

  it('every key exists in English and Spanish with the same {{params}}', () => {
    expect(en.size).toBeGreaterThan(100);
    expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of en) {
      expect({ key, params: params(es.get(key) ?? '') }).toEqual({ key, params: params(text) });
    }
  });

  it('say renders the run language and interpolates', () => {
    expect(say('en', 'dns.ok', { domain: 'a.example', serverIp: '192.0.2.1' })).toBe(
      'a.example points at 192.0.2.1, as it should.',
    );
    expect(say({ lang: 'es' }, 'dns.ok', { domain: 'a.example', serverIp: '192.0.2.1' })).toBe(
      'a.example apunta a 192.0.2.1, como debe.',
    );
  });
});

describe('Spanish runs', () => {
  it('translate our words and keep commands and tool output verbatim', () => {
    const advice = renderText('es', firewallAdvice('ufw', [80, 443]));
    expect(advice).toContain('no permite los puertos 80 y 443');
    expect(advice).toContain('ufw allow 80/tcp && ufw allow 443/tcp');
    const message = withOutput(msg('nginx.reloadRefused'), 'nginx: [emerg] bad "listen"');
    expect(renderText('es', message)).toBe(
      'nginx se negó a recargar. Lo que dijo:\nnginx: [emerg] bad "listen"',
    );
  });

  it('log and fail in Spanish when the server cannot be reached', async () => {
    const lines: string[] = [];
    const ctx: TEngineContext = {
      // Loopback allowed, as in development: the run gets as far as the connection.
      settings: {
        acmeDirectoryUrl: 'https://acme.invalid/dir',
        language: 'es',
        allowLoopback: true,
      },
      log: (level, message) => void lines.push(`${level}: ${message}`),
    };
    // Port 1 on the loopback: nothing listens, so the connection is refused at once.
    const outcome = await runDeployment(
      {
        domain: 'app.example.com',
        serverIp: '127.0.0.1',
        sshPort: 1,
        sshUser: 'root',
        auth: { password: 'pw' },
        email: 'ops@example.com',
        targetServer: 'http://10.0.0.5:3000',
      },
      ctx,
    );
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(lines[0]).toBe(
      'info: Desplegando app.example.com -> http://10.0.0.5:3000 en 127.0.0.1.',
    );
    expect(lines[1]).toBe(
      'info: Conectando a 127.0.0.1:1 como root por primera vez; se fijará su clave de host.',
    );
    expect(outcome.failure.code).toBe('tcp_connect');
    expect(outcome.failure.message).toContain(
      'Comprueba la dirección del servidor, el puerto SSH y cualquier cortafuegos intermedio.',
    );
    expect(lines.at(-1)).toBe(`error: ${outcome.failure.message}`);
  });
});
