// A run for a Spanish user on a lab server: our sentences are Spanish, tool output is verbatim.
import { describe, expect, it } from 'vitest';
import {
  captureLog,
  deployInput,
  engineContext,
  oneServerLab,
} from '../../../test/support/lab-helpers';
import { runDeployment } from './run-deployment';

const t = oneServerLab();

describe('a deployment requested in Spanish', () => {
  it('logs our steps in Spanish and the script output as it was printed', async () => {
    const log = captureLog();
    const ctx = engineContext(t.lab.status, log);
    const domain = t.s1.domains[0]!;
    const script = 'echo "migrating $PORTICO_DOMAIN"\necho "database is locked" >&2\nexit 3\n';
    const outcome = await runDeployment(
      deployInput(t.lab.status, t.s1, 'root', domain, { customScript: script }),
      { ...ctx, settings: { ...ctx.settings, language: 'es' } },
    );
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    const text = log.text();
    expect(text).toContain(`info: Desplegando ${domain} -> `);
    expect(text).toContain('info: Probando la configuración de nginx (nginx -t).');
    expect(text).toContain(`success: certbot obtuvo un certificado para ${domain}.`);
    expect(text).toContain(`info: Escribiendo el sitio HTTPS de ${domain}`);
    expect(text).toContain(`info: script: migrating ${domain}`);
    expect(outcome.failure.code).toBe('custom_script_failed');
    expect(outcome.failure.message).toBe(
      'El script personalizado terminó con el código 3. Su última salida:\n' +
        `migrating ${domain}\ndatabase is locked`,
    );
    // None of our English sentences slipped through.
    expect(text).not.toMatch(
      /Deploying|Connecting to|Writing the|Testing the nginx|certbot obtained/,
    );
  });
});
