import type { TText } from '@portico/shared/i18n/text';
import { RUN_COMPLETE_TEXT as complete } from '@portico/shared/i18n/text-examples';
import { describe, expect, it } from 'vitest';
import { createI18n, loadTexts, SERVER_TEXTS } from './i18n';
import { formatLogDownload, logText } from './log-text';

async function words(lang: 'en' | 'es') {
  const i18n = createI18n();
  await i18n.changeLanguage(lang);
  await loadTexts(SERVER_TEXTS, i18n);
  return logText(i18n);
}

describe('log lines in the screen’s language', () => {
  it('renders Portico’s own lines from their text, numbers the reader’s way', async () => {
    const line = { message: 'Despliegue completado en 4,6 s: …', text: complete };
    expect((await words('en')).line(line)).toMatch(/^Deployment complete in 4\.6 s: https:\/\//);
    expect((await words('es')).line(line)).toMatch(/^Despliegue completado en 4,6 s/);
  });

  it('keeps tool output and older lines (no text) as they are', async () => {
    const en = await words('en');
    expect(
      en.line({ message: 'certbot: Saving debug log', text: 'certbot: Saving debug log' }),
    ).toBe('certbot: Saving debug log');
    expect(en.line({ message: 'Línea antigua.', text: null })).toBe('Línea antigua.');
  });

  it('fills a value once: a value that looks like a template stays literal', async () => {
    const text: TText = {
      key: 'deployLog.failure.unexpected',
      params: { step: 'verify', reason: '{{step}} $t(common.cancel) <b>' },
    };
    expect((await words('en')).text(text)).toBe(
      'Unexpected error during verify: {{step}} $t(common.cancel) <b>',
    );
  });

  it('names levels the same way everywhere, in upper case', async () => {
    expect((await words('es')).level('success')).toBe('ÉXITO');
    expect((await words('es')).level('warning')).toBe('AVISO');
    expect((await words('en')).level('success')).toBe('SUCCESS');
  });

  it('writes the downloaded file in the reader’s language, one `[LEVEL] ISO - message` per line', async () => {
    const lines = [
      {
        level: 'info' as const,
        timestamp: '2026-11-22T16:00:00.000Z',
        message: 'x',
        text: 'certbot: ok',
      },
      {
        level: 'error' as const,
        timestamp: '2026-11-22T17:00:05+01:00',
        message: 'certbot failed',
      },
      {
        level: 'success' as const,
        timestamp: '2026-11-22T16:00:09.5Z',
        message: '…',
        text: complete,
      },
    ];
    expect(formatLogDownload(lines, await words('es')).split('\n')).toEqual([
      '[INFO] 2026-11-22T16:00:00.000Z - certbot: ok',
      '[ERROR] 2026-11-22T16:00:05.000Z - certbot failed',
      `[ÉXITO] 2026-11-22T16:00:09.500Z - ${(await words('es')).text(complete)}`,
    ]);
    expect(formatLogDownload(lines, await words('en')).split('\n')[2]).toMatch(
      /^\[SUCCESS\] 2026-11-22T16:00:09\.500Z - Deployment complete in 4\.6 s/,
    );
  });
});
