import { renderText } from '@portico/shared/i18n/text';
import { describe, expect, it } from 'vitest';
import { HostKeyMismatchError, SshError, SudoRefusedError } from '../ssh';
import { CHECKED_FIELDS, DeployValidationError, INVALID_REASONS } from '../validate';
import { StepError, toFailure, withOutput } from './failure';
import { EngineLog } from './logger';
import { say } from './messages';

describe('withOutput', () => {
  it('appends the non-empty lines of the tool output', () => {
    expect(renderText('en', withOutput('nginx said:', '\n  a  \n\nb\n'))).toBe(
      'nginx said:\n  a\nb',
    );
    expect(withOutput('plain', '  \n')).toBe('plain');
  });

  it('keeps the last 40 lines of long output', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const text = renderText('en', withOutput('x', lines)).split('\n');
    expect(text[1]).toBe('…');
    expect(text.at(-1)).toBe('line 99');
    expect(text).toHaveLength(42);
  });
});

describe('toFailure', () => {
  it('keeps a step error as it is', () => {
    expect(toFailure(new StepError('port_in_use', 'preflight', 'busy'), 'other', 'en')).toEqual({
      code: 'port_in_use',
      step: 'preflight',
      message: 'busy',
      text: 'busy',
    });
  });

  it('cuts very long output to its end, with a mark', () => {
    const text = renderText('en', withOutput('x', 'y'.repeat(5000)));
    expect(text.startsWith('x\n…\n')).toBe(true);
    expect(text.length).toBeLessThan(2000);
  });

  it('keeps the words as a text, rendered in each language on demand', () => {
    const f = toFailure(new DeployValidationError('domain', 'emptyLabel'), 'validate', 'es');
    expect(f.message).toMatch(/^El campo dominio no es válido/);
    expect(renderText('en', f.text)).toMatch(/^The domain is not valid/);
  });

  it('maps SSH errors to their codes with advice', () => {
    const auth = toFailure(
      new SshError('auth_failed', 'The server refused the login.'),
      'connect',
      'en',
    );
    expect(auth.code).toBe('auth_failed');
    expect(auth.message).toMatch(/Check the SSH user name/);
    const key = toFailure(
      new HostKeyMismatchError('SHA256:a', 'SHA256:b', 'h:22'),
      'connect',
      'en',
    );
    expect(key.code).toBe('host_key_mismatch');
    expect(key.message).toContain('SHA256:a');
    expect(key.message).toContain('SHA256:b');
    const sudo = toFailure(
      new SudoRefusedError('sudo refused.', 'Sorry, try again.'),
      'connect',
      'en',
    );
    expect(sudo).toMatchObject({
      code: 'sudo_refused',
      step: 'connect',
      message: 'sudo refused.\nSorry, try again.',
    });
    expect(toFailure(new SshError('invalid_key', 'bad key'), 'connect', 'en').code).toBe(
      'auth_failed',
    );
  });

  it('says SSH failures in the run language, with the same facts', () => {
    const mismatch = new HostKeyMismatchError('SHA256:old', 'SHA256:new', '198.18.0.2:22');
    const es = toFailure(mismatch, 'connect', 'es');
    expect(es.message).toMatch(/^La clave de host SSH de 198\.18\.0\.2:22 cambió/);
    expect(es.message).toContain('SHA256:old');
    expect(es.message).toContain('SHA256:new');
    expect(es.message).toContain('Olvidar clave de host');
    expect(toFailure(mismatch, 'connect', 'en').message).toContain('Forget host key');

    const sudo = new SudoRefusedError('sudo refused the password of deploy.', 'Sorry, try again.', {
      key: 'sudoWrongPassword',
      params: { user: 'deploy' },
    });
    expect(toFailure(sudo, 'connect', 'es').message).toBe(
      'sudo rechazó la contraseña de deploy.\nSorry, try again.',
    );
    const lost = new SshError('connection_lost', 'The connection closed.', {
      text: { key: 'closedMidCommand' },
    });
    expect(toFailure(lost, 'nginx', 'es').message).toMatch(
      /^La conexión se cerró antes de que terminara la orden\. El servidor o la red/,
    );
  });

  it('maps validation errors to invalid_input and anything else to internal', () => {
    const v = toFailure(new DeployValidationError('domain', 'emptyLabel'), 'validate', 'en');
    expect(v).toMatchObject({
      code: 'invalid_input',
      step: 'validate',
      message:
        'The domain is not valid: it has an empty label (two dots in a row, or a dot at either end).',
    });
    expect(toFailure(new Error('boom'), 'verify', 'en')).toMatchObject({
      code: 'internal',
      step: 'verify',
      message: 'Unexpected error during verify: boom',
    });
  });

  it('says why a value was refused in the run language, field and reason both', () => {
    const path = new DeployValidationError('targetServer.path', 'pathSegments');
    expect(toFailure(path, 'validate', 'es').message).toBe(
      'El campo ruta del destino no es válido: no puede contener segmentos vacíos, . ni ...',
    );
    const port = new DeployValidationError('targetServer.port', 'port');
    expect(toFailure(port, 'validate', 'en').message).toBe(
      'The target port is not valid: it must be a whole number from 1 to 65535.',
    );
    const long = new DeployValidationError('domain', 'tooLong', { max: 253 });
    expect(toFailure(long, 'validate', 'es').message).toBe(
      'El campo dominio no es válido: tiene más de 253 caracteres.',
    );
  });

  it('has an English and a Spanish text for every reason and every field the checks name', () => {
    for (const lang of ['en', 'es'] as const) {
      for (const reason of INVALID_REASONS) {
        expect(say(lang, `invalid.${reason}`)).not.toBe(`deployLog.invalid.${reason}`);
      }
      for (const field of CHECKED_FIELDS) {
        const key = `field.${field.replace('.', '_')}`;
        expect(say(lang, key)).not.toBe(`deployLog.${key}`);
      }
    }
  });

  it('explains an SFTP stream garbled by a chatty login script', () => {
    const f = toFailure(
      new Error('Packet length 1466262639 exceeds max length of 262144'),
      'http-site',
      'en',
    );
    expect(f.code).toBe('internal');
    expect(f.message).toMatch(/login script .* prints text/);
    expect(f.message).toContain('Packet length 1466262639');
  });

  it('is cancelled whenever the signal was aborted', () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      toFailure(new SshError('connection_lost', 'x'), 'certificate', 'en', controller.signal).code,
    ).toBe('cancelled');
  });
});

describe('EngineLog', () => {
  it('delivers lines in order to an async sink and survives a failing sink', async () => {
    const seen: string[] = [];
    const texts: unknown[] = [];
    const log = new EngineLog(async (level, message, text) => {
      texts.push(text);
      if (message === 'explode') throw new Error('sink down');
      await new Promise((r) => setTimeout(r, message === 'first' ? 20 : 0));
      seen.push(`${level}:${message}`);
    });
    log.info('first');
    log.error('explode');
    log.stream('certbot')('stdout', 'second');
    log.stream('certbot')('stderr', '   ');
    log.success('third');
    await log.flush();
    expect(seen).toEqual(['info:first', 'info:certbot: second', 'success:third']);
    expect(texts[0]).toBe('first');
  });

  it('hands the sink the words in the run language and the text they came from', async () => {
    const lines: [string, unknown][] = [];
    const log = new EngineLog((_level, message, text) => void lines.push([message, text]), 'es');
    log.info({ key: 'deployLog.nginx.testPassed' });
    await log.flush();
    expect(lines).toEqual([['nginx -t correcto.', { key: 'deployLog.nginx.testPassed' }]]);
  });
});
