import { StepError, withOutput } from './failure';
import { nginxStatus, startNginx } from './nginx-control';
import { asRoot, marked, outputOf, type TStepContext } from './step-context';

const PRESENT = `for c in nginx certbot; do
  if command -v "$c" >/dev/null 2>&1; then echo "PORTICO_HAS=$c"; else echo "PORTICO_MISSING=$c"; fi
done`;

// Package names are constants. apt waits for a lock held by unattended-upgrades instead of
// failing at once; Debian's certbot package works with --webroot without any plugin.
const APT = `export DEBIAN_FRONTEND=noninteractive
apt-get -q -o DPkg::Lock::Timeout=300 update 2>&1 || exit $?
apt-get -q -y -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold install nginx certbot 2>&1`;

// certbot lives in EPEL on RHEL and its rebuilds; Fedora has it in the main repositories.
const DNF = `if command -v dnf >/dev/null 2>&1; then pm=dnf; else pm=yum; fi
if ! $pm -q list certbot >/dev/null 2>&1 && [ -r /etc/os-release ] && ! grep -qi '^ID=.*fedora' /etc/os-release; then
  $pm -y install epel-release 2>&1 || true
fi
$pm -y install nginx certbot 2>&1`;

// Under SELinux (RHEL family) nginx may not open connections to upstreams until this boolean
// is on; without it every request through the proxy answers 502 ("Permission denied").
const SELINUX = `if command -v getenforce >/dev/null 2>&1 && [ "$(getenforce 2>/dev/null)" = Enforcing ]; then
  if getsebool httpd_can_network_connect 2>/dev/null | grep -q -- '--> off'; then
    if setsebool -P httpd_can_network_connect 1 2>&1; then echo PORTICO_SELINUX=enabled; else echo PORTICO_SELINUX=failed; fi
  else
    echo PORTICO_SELINUX=ok
  fi
fi`;

const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** Step 3: nginx and certbot installed (only when missing), and nginx running. */
export async function ensurePackages(c: TStepContext): Promise<void> {
  c.log.info('Checking that nginx and certbot are installed.');
  const r = await asRoot(c.session, PRESENT);
  const missing = marked(r.stdout, 'PORTICO_MISSING');
  if (missing.length === 0) {
    c.log.info('nginx and certbot are already installed.');
  } else {
    const tool = c.server.family === 'debian' ? 'apt-get' : 'dnf';
    c.log.info(`Installing ${missing.join(' and ')} with ${tool}; this can take a few minutes.`);
    const install = await asRoot(c.session, c.server.family === 'debian' ? APT : DNF, {
      onLine: c.log.stream(tool),
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
    const after = await asRoot(c.session, PRESENT);
    const still = marked(after.stdout, 'PORTICO_MISSING');
    if (install.code !== 0 || still.length > 0) {
      const what =
        install.code === 0
          ? `${tool} finished, but the ${still.join(' and ')} command is still missing from the PATH.`
          : `Installing nginx and certbot with ${tool} failed (exit ${install.code}).`;
      throw new StepError(
        'package_install_failed',
        'packages',
        withOutput(
          `${what} ${
            c.server.family === 'rhel'
              ? 'On RHEL-like systems certbot comes from EPEL; check that the server can reach its repositories.'
              : 'Check that the server can reach its package mirrors.'
          } The end of ${tool}'s output:`,
          outputOf(install),
        ),
      );
    }
    c.log.success(`Installed ${missing.join(' and ')}.`);
  }

  const selinux = await asRoot(c.session, SELINUX);
  const state = marked(selinux.stdout, 'PORTICO_SELINUX')[0];
  if (state === 'enabled') {
    c.log.info(
      'SELinux is enforcing: allowed nginx to connect to upstream services (setsebool -P httpd_can_network_connect 1).',
    );
  } else if (state === 'failed') {
    c.log.warning(
      `SELinux is enforcing and httpd_can_network_connect could not be turned on, so nginx may answer 502 for every request: ${selinux.stdout.replace(/^PORTICO_SELINUX=.*$/m, '').trim()}`,
    );
  }

  const status = await nginxStatus(c);
  if (status.version) c.log.info(`nginx version ${status.version}.`);
  if (!status.running) {
    c.log.info('nginx is not running.');
    await startNginx(c, 'packages');
  } else {
    c.log.info('nginx is running.');
  }
}
