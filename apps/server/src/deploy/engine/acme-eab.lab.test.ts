// External Account Binding on a lab server: Pebble started to require it (as ZeroSSL and Google
// Trust Services do) refuses certbot without a binding, and issues once the settings carry the
// key id and HMAC key; the key never reaches the log and its file is gone from the server after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { captureLog, deployInput, engineContext } from '../../../test/support/lab-helpers';
import { EAB_CONFIG_PATH } from './acme-eab';
import { runDeployment } from './run-deployment';

const KID = 'portico-lab-kid';
const HMAC = 'zWNDZM6eQGHWpSRTPal5eIUYFTu7EajVIoguysqZ9wG44nMEtx3MUAsUDkMTQ12W';
let lab: TLab;
let s1: TLabServer;

beforeAll(async () => {
  lab = await startLab({ servers: 1, eabKeys: { [KID]: HMAC } });
  s1 = lab.status.servers[0]!;
});

afterAll(async () => {
  await lab?.stop();
});

describe('a CA that requires External Account Binding (Pebble)', () => {
  it('refuses certbot without a binding', async () => {
    const log = captureLog();
    const outcome = await runDeployment(
      deployInput(lab.status, s1, 'root', s1.domains[0]!),
      engineContext(lab.status, log),
    );
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure.code).toBe('certbot_failed');
    expect(outcome.failure.message).toMatch(/external account/i);
  });

  it('issues with the binding from the settings; the key is in no log line and no file after', async () => {
    const log = captureLog();
    const ctx = engineContext(lab.status, log);
    ctx.settings.acmeEab = { kid: KID, hmacKey: HMAC };
    const outcome = await runDeployment(deployInput(lab.status, s1, 'root', s1.domains[0]!), ctx);
    expect(outcome.status, log.text()).toBe('completed');
    expect(log.text()).toContain('External Account Binding');
    expect(log.text()).toContain('certbot obtained a certificate');
    expect(log.text()).not.toContain(HMAC);
    const left = await lab.exec(s1.name, ['test', '-e', EAB_CONFIG_PATH]);
    expect(left.code).not.toBe(0);
  });
});
