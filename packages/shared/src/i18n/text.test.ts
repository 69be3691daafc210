import { describe, expect, it } from 'vitest';
import { renderStored, renderText, renderTextWith, type TText, ZText } from './text';
import { RUN_COMPLETE_TEXT as complete } from './text-examples';

describe('renderText', () => {
  it('writes a catalog sentence in each language, quantities the reader’s way', () => {
    expect(renderText('en', complete)).toBe(
      'Deployment complete in 4.6 s: https://app.example.com is served by 203.0.113.10 and forwards to http://10.0.0.5:8080.',
    );
    expect(renderText('es', complete)).toContain('4,6 s');
    expect(renderText('es', complete)).toMatch(/^Despliegue completado/);
  });

  it('keeps verbatim strings and identifiers as they are', () => {
    expect(renderText('es', 'certbot: Saving debug log')).toBe('certbot: Saving debug log');
    expect(renderText('es', 65535)).toBe('65535');
    expect(renderText('es', { number: 65535 })).toBe('65.535');
  });

  it('nests sentences and joins with a translated separator', () => {
    const ports: TText = { join: [80, 443], sep: { key: 'deployLog.and' } };
    const text: TText = { key: 'deployLog.preflight.portsNginxOnly', params: { ports } };
    expect(renderText('en', text)).toBe('Ports 80 and 443 are held by nginx only.');
    expect(renderText('es', text)).toContain('80 y 443');
    const lines: TText = { join: [{ key: 'deployLog.nginx.testPassed' }, 'tool line'], sep: '\n' };
    expect(renderText('en', lines)).toBe('nginx -t passed.\ntool line');
  });

  it('writes a moment in words, in UTC', () => {
    expect(renderText('en', { date: '2026-06-01T10:00:00.000Z' })).toMatch(
      /^June 1, 2026\D+10:00 AM UTC$/,
    );
    // ICU versions differ in the joint ("a las" / ","), so only the parts are fixed.
    expect(renderText('es', { date: '2026-06-01T10:00:00.000Z' })).toMatch(
      /^1 de junio de 2026\D+10:00 UTC$/,
    );
  });

  it('uses the translate function it is given', () => {
    const t = (key: string, params: Record<string, string>) => `${key}|${params.x}`;
    expect(renderTextWith('en', { key: 'a.b', params: { x: { number: 1.5, digits: 1 } } }, t)).toBe(
      'a.b|1.5',
    );
  });
});

describe('renderStored', () => {
  it('shows an older row’s plain message when it has no text', () => {
    expect(renderStored('en', { message: 'Desplegando…', text: null })).toBe('Desplegando…');
    expect(renderStored('en', { message: 'x', text: { key: 'deployLog.nginx.testPassed' } })).toBe(
      'nginx -t passed.',
    );
  });
});

describe('ZText', () => {
  it('accepts nested texts and refuses other shapes', () => {
    expect(ZText.safeParse(complete).success).toBe(true);
    expect(ZText.safeParse({ join: ['a', { date: 'x' }], sep: ', ' }).success).toBe(true);
    expect(ZText.safeParse({ key: 1 }).success).toBe(false);
    expect(ZText.safeParse(null).success).toBe(false);
  });
});
