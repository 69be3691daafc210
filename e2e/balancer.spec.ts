import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startBalancer, type TBalancer } from '../testbed/src/balancer';
import { postgresAdminQuery } from '../testbed/src/postgres-admin';
import { signIn } from './fixtures/auth';
import { text } from './fixtures/catalog';
import { deploymentLogs } from './fixtures/lab-api';
import { expect, fetchSite, test } from './fixtures/lab-app';
import { porticoEnv, startPortico, type TPorticoProcess } from './fixtures/portico-process';
import { uniqueUser } from './fixtures/users';
import { capture, expectStep, fillServerInfo } from './fixtures/wizard';

// Two Portico processes (the built bundle) on one PostgreSQL behind nginx configured with the
// balancer block of docs/OPERATIONS.md: round robin, no stickiness. A new user completes the
// wizard in Chromium through it to a live HTTPS site on a lab server. Needs TEST_DATABASE_URL
// (playwright.config.ts leaves this spec out without it, saying so).

test('through a load balancer: the wizard to a live site, the socket on one instance, the API on both, every line once and in order', async ({
  labApp,
  browser,
}) => {
  test.setTimeout(240_000);
  const database = `portico_e2e_lb_${process.pid}_${Date.now()}`;
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${database}`;
  // One data directory: both instances read the same key file and session secret.
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-e2e-lb-'));
  const instances: TPorticoProcess[] = [];
  let balancer: TBalancer | undefined;
  await postgresAdminQuery(`create database ${database}`);
  try {
    const ports = [await freePort(), await freePort()];
    // One after the other: the first applies the migrations.
    for (const port of ports) {
      const env = porticoEnv(port, dataDir, {
        DATABASE_URL: url.toString(),
        PORTICO_TRUST_PROXY: '127.0.0.1',
        ACME_DIRECTORY_URL: labApp.lab.status.acmeDirectoryUrl,
        PORTICO_EXTRA_CA_FILE: labApp.lab.status.caRootPath,
        PORTICO_DNS_SERVERS: labApp.lab.status.dnsServer,
      });
      instances.push(await startPortico(env));
    }
    balancer = await startBalancer(ports);

    const server = labApp.server('s1');
    const zone = (server.domains[0] as string).replace(/^site1\./, '');
    const domain = `balanced.${zone}`;
    await labApp.lab.point(domain, 's1');

    const context = await browser.newContext({
      baseURL: balancer.base,
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
    });
    try {
      const page = await context.newPage();
      await signIn(page, uniqueUser('lbw'), 'register');
      await page.goto('/');
      await page.getByTestId('create-proxy').click();
      await expectStep(page, 'server-info');
      await fillServerInfo(page, 'en', {
        serverIp: server.address,
        domain,
        password: labApp.rootPassword('s1'),
      });
      await page.getByTestId('wizard-next').click();
      await expectStep(page, 'dns-validation');
      await expect(page.getByTestId('wizard-dns')).toHaveAttribute('data-status', 'verified');
      await expect(page.getByTestId('wizard-ssh')).toHaveAttribute('data-status', 'verified');
      await page.getByTestId('wizard-next').click();
      await expectStep(page, 'destination');
      await page.locator('#wizard-destination-manual').check();
      await page.locator('#wizard-manual-endpoint').fill(labApp.upstream);
      await expect(page.getByTestId('wizard-manual-endpoint-message')).toHaveText(
        text('en', 'validation.target.valid'),
      );
      await page.getByTestId('wizard-next').click();
      await expectStep(page, 'deploy');
      await expect(page).toHaveURL(/continueId=/);
      const id = new URL(page.url()).searchParams.get('continueId') as string;
      const fromRun = balancer.served().length;
      await page.getByTestId('wizard-deploy-start').click();

      // The panel at the moment the run is shown completed (the step then moves on by itself).
      const atEnd = await page.waitForFunction(
        () => {
          const status = document.querySelector('[data-testid="wizard-deploy-status"]');
          if (status?.getAttribute('data-status') !== 'completed') return false;
          return Array.from(document.querySelectorAll('[data-testid="wizard-log-line"]')).map(
            (li) => li.lastElementChild?.textContent ?? '',
          );
        },
        undefined,
        { timeout: 120_000 },
      );
      const shown = (await atEnd.jsonValue()) as string[];
      const stored = (await deploymentLogs(page.request, id, 'en')).map((line) => line.message);
      expect(stored.at(-1)).toMatch(/^Deployment complete/);
      // Every stored line once and in order (the panel's own first line is not stored).
      expect(shown.filter((line) => stored.includes(line))).toEqual(stored);
      await expectStep(page, 'complete');
      await expect(page.getByTestId('wizard-complete-url')).toHaveText(`https://${domain}`);
      await capture(page, 'balancer', 'complete');

      // The socket was held by one instance while the API calls of the run landed on both.
      // nginx logs a socket when it closes: the page goes first.
      await page.close();
      const lb = balancer;
      await expect
        .poll(
          () =>
            lb
              .served()
              .slice(fromRun)
              .filter(([, path]) => path === '/ws').length,
        )
        .toBeGreaterThan(0);
      const served = balancer.served().slice(fromRun);
      const sockets = served.filter(([, path]) => path === '/ws');
      // Opened (101), never refused: a refused socket falls back to polling, which hides it.
      expect(sockets.map(([, , status]) => status)).toEqual(sockets.map(() => 101));
      expect(sockets.length).toBeGreaterThan(0);
      const apiOn = new Set(
        served.filter(([, path]) => path.startsWith('/api/')).map(([instance]) => instance),
      );
      expect(apiOn).toEqual(new Set([0, 1]));

      const answer = await fetchSite(labApp, server.address, domain);
      expect(answer.status).toBe(200);
      expect(answer.issuer).toMatch(/Pebble/i);
    } finally {
      await context.close();
    }
  } finally {
    await balancer?.stop();
    for (const instance of instances) await instance.stop();
    await postgresAdminQuery(`drop database if exists ${database} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
