// A short-lived certificate on a real lab server: Pebble issues 6-day certificates
// (certificateValidityPeriod), the instance asks for the ACME profile "shortlived", and the
// lab's certbot (Debian 12's 2.1) has no profiles: the deployment completes without one and its
// log says so. The watch then judges the certificate by its own lifetime, through the API with
// the app's clock moved: fine when new (a rule in days would call it in danger from the start),
// a warning with less than a third left, danger below a sixth.

import { renderText } from '@portico/shared/i18n/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  certificateCalls,
  deployedAndChecked,
} from '../../../test/support/certificate-lab-helpers';
import { rootProxy } from '../../../test/support/lab-app-helpers';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import type { TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { certbotFeaturesLine, parseCertbotVersion } from '../../deploy/engine/certbot-features';

const DAY = 24 * 60 * 60 * 1000;
const SIX_DAYS_S = 6 * 24 * 60 * 60;

let lab: TLab;
let s1: TLabServer;
let t: TTestApp;
let clockMs: number | undefined;

beforeAll(async () => {
  lab = await startLab({ servers: 1, certificateValiditySeconds: SIX_DAYS_S });
  s1 = lab.status.servers[0]!;
  t = await inProcessLabApp(lab.status, {
    clock: () => clockMs ?? Date.now(),
    deploy: {
      settings: { acmeDirectoryUrl: lab.status.acmeDirectoryUrl, acmeProfile: 'shortlived' },
    },
  });
});

afterAll(async () => {
  await t?.close();
  await lab?.stop();
});

describe('a 6-day certificate', () => {
  let client: TestClient;
  let id: string;
  const { status, checkNow } = certificateCalls(
    () => client,
    () => id,
    () => {
      if (clockMs !== undefined) clockMs += 1000;
    },
  );

  beforeAll(async () => {
    ({ client } = await signedInClient(t));
    id = await deployedAndChecked(client, rootProxy(lab.status, s1, s1.domains[0]!));
  });

  it('is issued without a profile by a certbot that has none, and the log says which certbot and what it does', async () => {
    const version = await lab.exec(s1.name, ['certbot', '--version']);
    const parsed = parseCertbotVersion(version.stdout || version.stderr);
    expect(parsed).not.toBeNull();
    const lines = (
      (await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })).json() as {
        message: string;
      }[]
    ).map((l) => l.message);
    const said = renderText('en', certbotFeaturesLine(parsed, 'shortlived'));
    expect(lines, lines.join('\n')).toContain(said);
    if (parsed!.major < 4) expect(said).toContain('ACME profiles not supported');
  });

  it('is judged by its own lifetime: fine when new, a warning below a third, danger below a sixth', async () => {
    const now = await status();
    const notBefore = Date.parse(now.served.notBefore);
    const notAfter = Date.parse(now.served.notAfter);
    expect(Math.abs(notAfter - notBefore - 6 * DAY)).toBeLessThan(60 * 60 * 1000);
    expect(now.state).toBe('fine');
    expect(now.daysLeft).toBeLessThanOrEqual(6);

    clockMs = notBefore + 3.8 * DAY;
    expect((await checkNow()).state).toBe('fine');
    clockMs = notBefore + 4.2 * DAY;
    expect((await checkNow()).state).toBe('warning');
    clockMs = notBefore + 5.2 * DAY;
    expect((await checkNow()).state).toBe('danger');
    clockMs = undefined;
  });
});
