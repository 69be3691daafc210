// Deployments that must fail, each naming its cause with the tool's own output, on lab servers
// (testbed/). s1: a plain server; s2: port 80 held by another program. And one that waits for
// another certbot already at work on the server, then completes; a reload that does not settle,
// on a deployment and on a removal; and an nginx change whose test outlasts the command's limit.
import { readFileSync } from 'node:fs';
import { renderText } from '@portico/shared/i18n/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  captureLog,
  deployInput,
  engineContext,
  FAKE_CERTBOT,
  httpGet,
  startFakeCertbot,
  type TCapturedLog,
} from '../../../test/support/lab-helpers';
import { connectSsh, type TSshSession } from '../ssh';
import type { TRunOptions } from '../ssh/run';
import { AWAIT_OTHER_CERTBOT } from './certificate';
import { StepError } from './failure';
import { EngineLog } from './logger';
import { applyNginxFiles } from './nginx-transaction';
import { removeSite } from './remove-site';
import { runDeployment } from './run-deployment';
import type { TStepContext } from './step-context';
import type { TDeployFailure, TDeployInput, TEngineContext, TEngineSettings } from './types';

let lab: TLab;
let s1: TLabServer;
let s2: TLabServer;

beforeAll(async () => {
  lab = await startLab({ servers: 2, variants: { s2: ['port80-busy'] } });
  [s1, s2] = lab.status.servers as [TLabServer, TLabServer];
});

afterAll(async () => {
  await lab?.stop();
});

async function failed(
  input: TDeployInput,
  settings: Partial<TEngineSettings> = {},
): Promise<{ failure: TDeployFailure; log: TCapturedLog; hostKeyFingerprint?: string }> {
  const log = captureLog();
  const ctx = engineContext(lab.status, log);
  ctx.settings = { ...ctx.settings, ...settings };
  const outcome = await runDeployment(input, ctx);
  if (outcome.status !== 'failed') throw new Error(`expected a failure\n${log.text()}`);
  // The run ends with an error line that carries the same message.
  expect(log.lines.at(-1)).toEqual({ level: 'error', message: outcome.failure.message });
  return { failure: outcome.failure, log, hostKeyFingerprint: outcome.hostKeyFingerprint };
}

/** An engine context whose run is stopped (its signal aborted) when a log line starts so. */
function stoppedAt(linePrefix: string): { ctx: TEngineContext; log: TCapturedLog } {
  const controller = new AbortController();
  const log = captureLog();
  const ctx = engineContext(lab.status, log);
  ctx.signal = controller.signal;
  ctx.log = (level, message) => {
    log.lines.push({ level, message });
    if (message.startsWith(linePrefix)) controller.abort();
  };
  return { ctx, log };
}

/** A script's output on s1. */
const onS1 = (script: string) => lab.exec('s1', ['bash', '-c', script]).then((r) => r.stdout);
/** nginx's workers on s1 (the master's children), sorted. */
const workersOnS1 = async () =>
  (await onS1('pgrep -P "$(cat /run/nginx.pid)" | sort')).split('\n').filter(Boolean);
const listedOnS1 = (dir: string) => lab.exec('s1', ['ls', '-A', dir]).then((r) => r.stdout);

/** A new name in s1's zone, pointed at s1. */
async function domainOnS1(label: string): Promise<string> {
  const domain = `${label}.${s1.domains[0]!.replace(/^site1\./, '')}`;
  await lab.point(domain, 's1');
  return domain;
}

describe('connection failures', () => {
  it('a wrong password is auth_failed, and the password appears nowhere', async () => {
    const input = deployInput(lab.status, s1, 'root', s1.domains[0]!, {
      auth: { password: 'Not-the-password-7' },
    });
    const { failure, log } = await failed(input);
    expect(failure.code).toBe('auth_failed');
    expect(failure.step).toBe('connect');
    expect(failure.message).toMatch(/refused the login/);
    expect(log.text()).not.toContain('Not-the-password-7');
  });

  it('a user who may not use sudo is sudo_refused, with what sudo said', async () => {
    await lab.exec(
      s1.name,
      ['bash', '-c', 'useradd --create-home --shell /bin/bash nosudo && chpasswd'],
      'nosudo:No-sudo-pw-1\n',
    );
    const input = deployInput(lab.status, s1, 'deploy', s1.domains[0]!, {
      sshUser: 'nosudo',
      auth: { password: 'No-sudo-pw-1' },
    });
    const { failure, log } = await failed(input);
    expect(failure.code).toBe('sudo_refused');
    expect(failure.step).toBe('connect');
    expect(failure.message).toContain('nosudo is not allowed to use sudo');
    expect(failure.message).toMatch(/not in the sudoers file/);
    expect(log.text()).not.toContain('No-sudo-pw-1');
  });

  it('a changed host key is refused with both fingerprints, before logging in', async () => {
    const pinned = 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const keys: string[] = [];
    const log = captureLog();
    const ctx = { ...engineContext(lab.status, log), onHostKey: (k: string) => void keys.push(k) };
    const outcome = await runDeployment(
      deployInput(lab.status, s1, 'root', s1.domains[0]!, { expectedFingerprint: pinned }),
      ctx,
    );
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure.code).toBe('host_key_mismatch');
    expect(outcome.failure.message).toContain(pinned);
    expect(outcome.failure.message).toContain(s1.hostKeyFingerprint);
    expect(keys).toEqual([]);
  });

  it('the host key is reported to the caller on first contact', async () => {
    const keys: string[] = [];
    const log = captureLog();
    const ctx = { ...engineContext(lab.status, log), onHostKey: (k: string) => void keys.push(k) };
    // Fails later (the server says its OS is unsupported), but the key was reported first.
    await lab.exec(s1.name, [
      'bash',
      '-c',
      'cp --remove-destination /usr/lib/os-release /etc/os-release.portico-test && printf "ID=alpine\\nPRETTY_NAME=\\"Alpine Linux v3.20\\"\\n" > /etc/os-release.new && mv /etc/os-release.new /etc/os-release',
    ]);
    try {
      const outcome = await runDeployment(
        deployInput(lab.status, s1, 'root', s1.domains[0]!, { expectedFingerprint: undefined }),
        ctx,
      );
      expect(keys).toEqual([s1.hostKeyFingerprint]);
      expect(outcome.status).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(outcome.hostKeyFingerprint).toBe(s1.hostKeyFingerprint);
      expect(outcome.failure.code).toBe('unsupported_os');
      expect(outcome.failure.message).toContain('Alpine Linux v3.20');
    } finally {
      await lab.exec(s1.name, ['mv', '/etc/os-release.portico-test', '/etc/os-release']);
    }
  });
});

describe('preflight and certificate failures', () => {
  it('port 80 held by another program is port_in_use naming it and its pid', async () => {
    const { failure } = await failed(deployInput(lab.status, s2, 'root', s2.domains[0]!));
    expect(failure.code).toBe('port_in_use');
    expect(failure.step).toBe('preflight');
    expect(failure.message).toMatch(/port 80 \(.*\) is held by python3 \(pid \d+\)/);
    expect(failure.message).toContain('users:(("python3"');
  });

  it('a domain pointing at another server is dns_mismatch naming that address', async () => {
    const domain = s1.domains[2]!;
    await lab.point(domain, s2.name);
    try {
      const { failure } = await failed(deployInput(lab.status, s1, 'root', domain));
      expect(failure.code).toBe('dns_mismatch');
      expect(failure.message).toContain(`points at ${s2.address}, not at this server`);
    } finally {
      await lab.point(domain, s1.name);
    }
  });

  it('when the DNS check cannot run, certbot fails with the CA’s own reason', async () => {
    const domain = s1.domains[2]!;
    await lab.point(domain, s2.name);
    try {
      // No resolver at this address: the preflight only warns, and certbot meets the truth.
      const { failure, log } = await failed(deployInput(lab.status, s1, 'root', domain), {
        dnsServers: ['127.0.0.1:9'],
      });
      expect(log.lines.some((l) => l.level === 'warning' && l.message.includes(domain))).toBe(true);
      expect(failure.code).toBe('certbot_failed');
      expect(failure.step).toBe('certificate');
      expect(failure.message).toContain('certbot said:');
      expect(failure.message).toMatch(/Certbot failed to authenticate some domains/);
      expect(failure.message).toContain(`Domain: ${domain}`);
      // What the CA found at the address the domain really points to (s2: not nginx, 404).
      expect(failure.message).toMatch(/Type:\s+unauthorized/);
      expect(failure.message).toMatch(/acme-challenge\/\S+ returned 404/);
    } finally {
      await lab.point(domain, s1.name);
    }
    const left = await lab.exec(s1.name, ['bash', '-c', 'nginx -t 2>&1']);
    expect(left.stdout).toContain('test is successful');
  });
});

describe('the ACME server’s own TLS certificate', () => {
  it('certbot says why it cannot reach an ACME server it does not trust; the settings bundle fixes it', async () => {
    const domain = s1.domains[1]!;
    // The lab adds its CA to each server's bundle; put the machine's plain bundle back.
    const plain = readFileSync('/etc/ssl/certs/ca-certificates.crt', 'utf8');
    const bundle = '/etc/ssl/certs/ca-certificates.crt';
    await lab.exec(
      s1.name,
      ['bash', '-c', `cp ${bundle} /root/bundle.lab && cat > ${bundle}`],
      plain,
    );
    try {
      const { failure } = await failed(deployInput(lab.status, s1, 'root', domain));
      expect(failure.code).toBe('certbot_failed');
      expect(failure.message).toContain('CERTIFICATE_VERIFY_FAILED');

      const log = captureLog();
      const ctx = engineContext(lab.status, log);
      ctx.settings.acmeCaBundleOnServer = lab.status.caListenerCertPath;
      const outcome = await runDeployment(deployInput(lab.status, s1, 'root', domain), ctx);
      expect(outcome.status, log.text()).toBe('completed');
    } finally {
      await lab.exec(s1.name, ['cp', '/root/bundle.lab', bundle]);
    }
  });
});

describe('warnings that do not stop a deployment', () => {
  it('an active ufw that does not allow 80/443 is named with the command to open them', async () => {
    // A stand-in ufw inside the test server, printing what Ubuntu's ufw prints.
    const fake =
      '#!/bin/sh\nprintf "Status: active\\n\\nTo Action From\\n-- ------ ----\\nOpenSSH ALLOW Anywhere\\n"\n';
    await lab.exec(
      s1.name,
      ['bash', '-c', 'cat > /usr/local/sbin/ufw && chmod 755 /usr/local/sbin/ufw'],
      fake,
    );
    try {
      const log = captureLog();
      const outcome = await runDeployment(
        deployInput(lab.status, s1, 'root', s1.domains[1]!),
        engineContext(lab.status, log),
      );
      expect(outcome.status, log.text()).toBe('completed');
      const warning = log.lines.find((l) => l.level === 'warning' && l.message.includes('ufw'));
      expect(warning?.message).toContain('does not allow ports 80 and 443');
      expect(warning?.message).toContain('ufw allow 80/tcp && ufw allow 443/tcp');
    } finally {
      await lab.exec(s1.name, ['rm', '-f', '/usr/local/sbin/ufw']);
    }
  });
});

describe('another certbot at work on the server', () => {
  /** Starts `background` on s1 (detached), then runs the wait; what it printed and its rounds. */
  async function waitBeside(background: string): Promise<{ busy: boolean; rounds: number }> {
    const script = `${background} >/dev/null 2>&1 &
sleep 0.3
${AWAIT_OTHER_CERTBOT}
echo "PORTICO_ROUNDS=$i"`;
    const r = await lab.exec('s1', ['bash', '-c', `${FAKE_CERTBOT}\n${script}`, 'wait', '2']);
    expect(r.code, r.stderr).toBe(0);
    return {
      busy: r.stdout.includes('PORTICO_CERTBOT_BUSY'),
      rounds: Number(/PORTICO_ROUNDS=(\d+)/.exec(r.stdout)?.[1]),
    };
  }

  it('the wait knows a certbot by its command line, and not a shell that only names one', async () => {
    const python = await waitBeside('setsid /tmp/fake/certbot');
    expect(python.busy).toBe(true);
    expect(python.rounds).toBeGreaterThanOrEqual(5);
    const alone = await waitBeside("setsid bash -c 'exec -a /usr/bin/certbot sleep 2'");
    expect(alone.busy).toBe(true);
    expect(alone.rounds).toBeGreaterThanOrEqual(5);
    // The renewal timer's shell while it sleeps: certbot is not running yet.
    const wrapper = await waitBeside("setsid sh -c 'sleep 2; : certbot -q renew'");
    expect(wrapper).toEqual({ busy: false, rounds: 0 });
  });

  it('a deployment waits for it, says so, and completes', async () => {
    const zone = s1.domains[0]!.replace(/^site1\./, '');
    const domain = `certbot-busy.${zone}`;
    await lab.point(domain, 's1');
    await startFakeCertbot(lab, 's1', 4);
    const log = captureLog();
    const outcome = await runDeployment(
      deployInput(lab.status, s1, 'root', domain),
      engineContext(lab.status, log),
    );
    expect(outcome.status, log.text()).toBe('completed');
    const waiting = log.lines.findIndex((l) =>
      l.message.startsWith('Another certbot is running on the server'),
    );
    const requesting = log.lines.findIndex((l) => l.message.startsWith('Requesting a certificate'));
    expect(waiting, log.text()).toBeGreaterThan(requesting);
    expect(log.lines[waiting]).toEqual({
      level: 'info',
      message:
        'Another certbot is running on the server (its renewal timer, or the request of a run that was interrupted); waiting up to 120 s for it to finish.',
    });
    expect(log.text()).not.toContain('PORTICO_CERTBOT_BUSY');
    // Nor the site record's look that the certbot script takes after certbot.
    expect(log.text()).not.toContain('PORTICO_');
  });
});

describe('a run stopped while it waits for another certbot', () => {
  it('leaves no wait behind on the server to act later', async () => {
    const zone = s1.domains[0]!.replace(/^site1\./, '');
    const domain = `certbot-stopped.${zone}`;
    await lab.point(domain, 's1');
    await startFakeCertbot(lab, 's1', 30);
    // The waiting script, found by a word of its own text ("[r]" keeps this search out).
    const waiting = async () =>
      (
        await lab.exec('s1', [
          'bash',
          '-c',
          'grep -ls "certbot_[r]unning" /proc/[0-9]*/cmdline | grep -vc self || true',
        ])
      ).stdout.trim();
    try {
      const { ctx, log } = stoppedAt('Another certbot is running on the server');
      const outcome = await runDeployment(deployInput(lab.status, s1, 'root', domain), ctx);
      expect(outcome.status, log.text()).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(outcome.failure).toMatchObject({ code: 'cancelled', step: 'certificate' });
      // Within about a second the wait's next line finds nobody reading and it ends: it will
      // not run certbot for a run that was stopped once the other certbot is done.
      await expect.poll(waiting, { timeout: 10_000, interval: 250 }).toBe('0');
      const fake = await lab.exec('s1', ['pgrep', '-f', '/tmp/fake/certbot']);
      expect(fake.code).toBe(0);
      expect(log.text()).not.toContain('PORTICO_');
    } finally {
      await lab.exec('s1', ['pkill', '-f', '/tmp/fake/certbot']);
    }
  });
});

describe('a site file that cannot be written', () => {
  it('fails the HTTP site naming the file and what the server said; nothing is enabled or reloaded', async () => {
    const domain = await domainOnS1('not-a-file');
    const path = `/etc/nginx/sites-available/proxy-${domain}`;
    // A directory where the site file goes: the rename onto it must fail, not land inside.
    await lab.exec('s1', ['mkdir', '-p', `${path}/keep`]);
    try {
      const before = await workersOnS1();
      const { failure, log } = await failed(deployInput(lab.status, s1, 'root', domain));
      expect(failure.code).toBe('internal');
      expect(failure.step).toBe('http-site');
      expect(failure.message).toContain(`Could not write ${path}:`);
      expect(failure.message).toMatch(/cannot overwrite directory/);
      expect(log.text()).not.toContain('Enabled the site');
      expect(log.text()).not.toContain('Reloading nginx');
      expect(await listedOnS1(path)).toBe('keep\n');
      expect(await listedOnS1('/etc/nginx/sites-enabled')).not.toContain(domain);
      // No temporary file left beside it.
      expect(await listedOnS1('/etc/nginx/sites-available')).not.toMatch(/\.tmp$/m);
      expect(await workersOnS1()).toEqual(before);
    } finally {
      await lab.exec('s1', ['rm', '-rf', path]);
    }
  });
});

describe('a reload that does not settle', () => {
  const PENDING =
    'nginx accepted the reload signal, but 10 s later its new configuration was not yet ' +
    'serving alone: no new workers had started, or old ones were still taking connections.';

  /**
   * Runs `during` with one of s1's nginx workers stopped: it cannot act on the master's signal
   * to shut down, so it keeps its title and its listening sockets, as a worker busy past the
   * wait would. Let go afterwards, it shuts down and nginx serves on.
   */
  async function withAWorkerHeld(during: (held: string) => Promise<void>) {
    const [held] = await workersOnS1();
    expect(held).toMatch(/^\d+$/);
    await lab.exec('s1', ['kill', '-STOP', held!]);
    try {
      await during(held!);
    } finally {
      await lab.exec('s1', ['kill', '-CONT', held!]);
    }
    await expect
      .poll(() => onS1(`[ -e /proc/${held} ] && echo alive || echo gone`), { timeout: 10_000 })
      .toBe('gone\n');
    expect((await lab.exec('s1', ['nginx', '-t'])).code).toBe(0);
  }

  /** The sentence, on the server: new workers beside the held one, which still holds port 80. */
  async function expectOldBesideNew(held: string) {
    const workers = await workersOnS1();
    expect(workers).toContain(held);
    expect(workers.length).toBeGreaterThan(1);
    expect(await onS1(`tr '\\0' ' ' < /proc/${held}/cmdline`)).not.toContain('shutting down');
    expect(await onS1("ss -ltnpH 'sport = :80'")).toContain(`pid=${held},`);
  }

  it('fails the HTTP site saying why, puts the files back, and the server agrees', async () => {
    const domain = await domainOnS1('reload-pending');
    await withAWorkerHeld(async (held) => {
      const started = Date.now();
      const { failure, log } = await failed(deployInput(lab.status, s1, 'root', domain));
      // "10 s later": the wait ran its full time before saying so (a lower bound, not a speed).
      expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
      expect(failure).toMatchObject({ code: 'nginx_config_invalid', step: 'http-site' });
      expect(failure.message).toContain(PENDING);
      expect(log.text()).toContain(
        'Putting the previous nginx files back because the reload failed.',
      );
      await expectOldBesideNew(held);
      // And what it put back: no site for the domain, enabled or available.
      expect(await listedOnS1('/etc/nginx/sites-enabled')).not.toContain(domain);
      expect(await listedOnS1('/etc/nginx/sites-available')).not.toContain(domain);
    });
  });

  it('a removal fails saying so, never "removed", with the files already gone', async () => {
    const domain = await domainOnS1('remove-pending');
    const deployed = await runDeployment(
      deployInput(lab.status, s1, 'root', domain),
      engineContext(lab.status, captureLog()),
    );
    expect(deployed.status).toBe('completed');
    await withAWorkerHeld(async (held) => {
      const log = captureLog();
      const outcome = await removeSite(
        deployInput(lab.status, s1, 'root', domain),
        engineContext(lab.status, log),
      );
      expect(outcome.status, log.text()).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(outcome.failure).toMatchObject({ code: 'nginx_config_invalid', step: 'remove' });
      expect(outcome.failure.message).toContain(PENDING);
      expect(log.text()).not.toContain('was removed from');
      await expectOldBesideNew(held);
      // The files went before the reload (nginx -t passed without them); the new workers have
      // no site for the domain, and only the held one may still have it.
      expect(await listedOnS1('/etc/nginx/sites-enabled')).not.toContain(domain);
      expect(await listedOnS1('/etc/nginx/sites-available')).not.toContain(domain);
    });
  });
});

describe('cancellation', () => {
  it('an aborted deployment stops at once and reports cancelled', async () => {
    const { ctx, log } = stoppedAt('Requesting a certificate');
    const outcome = await runDeployment(deployInput(lab.status, s1, 'root', s1.domains[1]!), ctx);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure.code).toBe('cancelled');
    expect(outcome.failure.step).toBe('certificate');
    expect(log.text()).not.toContain('Writing the HTTPS site');
  });
});

describe('an nginx change the server does not finish in time', () => {
  // nginx on s1 as its PATH finds it first: a `-t` or `-T` hangs while the marker exists.
  const WRAPPER = '/usr/local/sbin/nginx';
  const MARKER = '/tmp/portico-nginx-test-hangs';
  const LIMIT_MS = 4000;

  /** A step context on s1 whose every command has LIMIT_MS (the engine's is 60 s). */
  async function stepOnS1(log: TCapturedLog): Promise<TStepContext> {
    const root = s1.users.find((u) => u.name === 'root')!;
    const session = await connectSsh({
      host: s1.address,
      port: s1.sshPort,
      username: 'root',
      password: root.password,
      expectedFingerprint: s1.hostKeyFingerprint,
    });
    opened.push(session);
    const limited: TSshSession = Object.assign(Object.create(session) as TSshSession, {
      run: (script: string, options?: TRunOptions) =>
        session.run(script, { ...options, timeoutMs: LIMIT_MS }),
    });
    return {
      session: limited,
      log: new EngineLog(engineContext(lab.status, log).log),
      settings: engineContext(lab.status, log).settings,
      server: { family: 'debian', prettyName: 'Debian', systemd: false, ipv6: false },
    };
  }
  const opened: TSshSession[] = [];

  const site = (domain: string, says: string) => ({
    path: `/etc/nginx/sites-available/${domain}`,
    content: `server {\n    listen 80;\n    server_name ${domain};\n    return 200 "${says}\\n";\n}\n`,
    mode: 0o644,
  });
  const link = (domain: string) => ({
    target: `/etc/nginx/sites-available/${domain}`,
    link: `/etc/nginx/sites-enabled/${domain}`,
  });

  /** The site written, served, its file's bytes: what a stopped change must leave. */
  async function servingFirst(domain: string): Promise<string> {
    const setup = captureLog();
    await applyNginxFiles(await stepOnS1(setup), 'http-site', [site(domain, 'first')], {
      link: link(domain),
    });
    expect((await httpGet(s1.address, domain)).body, setup.text()).toBe('first\n');
    return onS1(`cat /etc/nginx/sites-available/${domain}`);
  }

  beforeAll(async () => {
    await onS1(
      `printf '%s\\n' '#!/bin/sh' 'if [ -e ${MARKER} ] && { [ "$1" = -t ] || [ "$1" = -T ]; }; then sleep 30; fi' 'exec /usr/sbin/nginx "$@"' > ${WRAPPER} && chmod 755 ${WRAPPER}`,
    );
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    await onS1(`rm -f ${WRAPPER} ${MARKER}`);
  });

  it('names the part it did not finish, puts back what it wrote, and the server agrees', async () => {
    const changed = await domainOnS1('stall-changed');
    const added = await domainOnS1('stall-added');
    const before = await servingFirst(changed);

    await onS1(`touch ${MARKER}`);
    for (const [domain, says] of [
      [changed, 'second'],
      [added, 'new'],
    ] as const) {
      const log = captureLog();
      const error = await applyNginxFiles(await stepOnS1(log), 'http-site', [site(domain, says)], {
        link: link(domain),
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, log.text()).toBeInstanceOf(StepError);
      const failure = error as StepError;
      expect(failure.code).toBe('timeout');
      expect(renderText('en', failure.text)).toBe(
        'The server did not finish testing the configuration (nginx -t) within 4 s. ' +
          'Check that the server is up and not overloaded, then try again.',
      );
      expect(renderText('es', failure.text)).toContain(
        'El servidor no terminó de probar la configuración (nginx -t) en 4 s.',
      );
      expect(log.text()).toContain(
        'Putting the previous nginx files back because the server did not answer in time.',
      );
      expect(log.text()).not.toContain('Not every file could be put back');
    }
    await onS1(`rm -f ${MARKER}`);
    // The changed site holds its old bytes and still serves them; the added one left nothing.
    expect(await onS1(`cat /etc/nginx/sites-available/${changed}`)).toBe(before);
    expect((await httpGet(s1.address, changed)).body).toBe('first\n');
    expect(await listedOnS1('/etc/nginx/sites-available')).not.toContain(added);
    expect(await listedOnS1('/etc/nginx/sites-enabled')).not.toContain(added);
    expect(await onS1('nginx -t 2>&1')).toContain('test is successful');
  });

  it('a reload the limit stops says how far it got, puts the files back, and nginx serves them once it reloads', async () => {
    const domain = await domainOnS1('stall-reload');
    const before = await servingFirst(domain);
    // The master stopped: the test passes, the reload's signal waits, no new worker starts.
    const master = (await onS1('cat /run/nginx.pid')).trim();
    await onS1(`kill -STOP ${master}`);
    const log = captureLog();
    let error: unknown;
    try {
      error = await applyNginxFiles(await stepOnS1(log), 'http-site', [site(domain, 'second')], {
        link: link(domain),
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
    } finally {
      await onS1(`kill -CONT ${master}`);
    }
    expect(error, log.text()).toBeInstanceOf(StepError);
    expect(renderText('en', (error as StepError).text)).toBe(
      'The server did not finish reloading nginx within 4 s. ' +
        'Check that the server is up and not overloaded, then try again.',
    );
    expect(log.text()).toMatch(
      /nginx was sent the reload \d+\.\d s into the change; no new worker had started when the time ran out\./,
    );
    // The put-back's own reload waited on the stopped master too: the files are back, unconfirmed.
    expect(log.text()).toContain('The previous files are back, but nginx did not confirm');
    expect(log.text()).not.toContain('Not every file could be put back');
    expect(await onS1(`cat /etc/nginx/sites-available/${domain}`)).toBe(before);
    // Let go, the master takes the signal it was sent and serves the files as they are now.
    let served = '';
    for (let i = 0; i < 50 && served !== 'first\n'; i++) {
      served = (await httpGet(s1.address, domain)).body;
      if (served !== 'first\n') await new Promise((r) => setTimeout(r, 200));
    }
    expect(served).toBe('first\n');
  });
});
