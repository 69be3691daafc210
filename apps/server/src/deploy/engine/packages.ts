import { StepError, withOutput } from './failure';
import { joinAnd, msg } from './messages';
import { nginxStatus, parseNginxStatus, startNginx } from './nginx-control';
import { asRoot, marked, outputOf, type TStepContext } from './step-context';

export const PRESENT = `for c in nginx certbot; do
  if command -v "$c" >/dev/null 2>&1; then echo "PORTICO_HAS=$c"; else echo "PORTICO_MISSING=$c"; fi
done`;

// Package names are constants, passed as the script's arguments. apt waits for a lock held by
// unattended-upgrades instead of failing at once; Debian's certbot package works with --webroot
// without any plugin.
const APT = `export DEBIAN_FRONTEND=noninteractive
apt-get -q -o DPkg::Lock::Timeout=300 update 2>&1 || exit $?
apt-get -q -y -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold install "$@" 2>&1`;

// certbot lives in EPEL on RHEL and its rebuilds; Fedora has it in the main repositories.
const DNF = `if command -v dnf >/dev/null 2>&1; then pm=dnf; else pm=yum; fi
case " $* " in *" certbot "*)
  if ! $pm -q list certbot >/dev/null 2>&1 && [ -r /etc/os-release ] && ! grep -qi '^ID=.*fedora' /etc/os-release; then
    $pm -y install epel-release 2>&1 || true
  fi ;;
esac
$pm -y install "$@" 2>&1`;

// Under SELinux (RHEL family) nginx may not open connections to upstreams until this boolean
// is on; without it every request through the proxy answers 502 ("Permission denied").
// Reading it is part of the remote preflight; it is set only once the preflight has passed.
export const SELINUX_STATE = `if command -v getenforce >/dev/null 2>&1 && [ "$(getenforce 2>/dev/null)" = Enforcing ]; then
  if getsebool httpd_can_network_connect 2>/dev/null | grep -q -- '--> off'; then echo PORTICO_SELINUX=off; else echo PORTICO_SELINUX=ok; fi
fi`;
const SELINUX_SET = `if setsebool -P httpd_can_network_connect 1 2>&1; then echo PORTICO_SELINUX=enabled; else echo PORTICO_SELINUX=failed; fi`;

const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** The package manager's name as the log shows it. */
export function packageTool(c: TStepContext): string {
  return c.server.family === 'debian' ? 'apt-get' : 'dnf';
}

/**
 * Installs packages (constant names only) with the server's package manager, its output
 * streamed to the log. The caller checks what is there afterwards.
 */
export async function installPackages(c: TStepContext, names: readonly string[]) {
  const tool = packageTool(c);
  c.log.info(msg('packages.installing', { missing: joinAnd([...names]), tool }));
  const result = await asRoot(c.session, c.server.family === 'debian' ? APT : DNF, {
    args: [...names],
    onLine: c.log.stream(tool),
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  return { tool, result };
}

/**
 * Step 3: nginx and certbot installed (only when missing), and nginx running. `r.stdout` is the
 * remote preflight's output (`PRESENT`, `SELINUX_STATE` and the nginx status within it). After
 * an install those facts are stale and are read again. Returns whether anything was installed.
 */
export async function ensurePackages(
  c: TStepContext,
  r: { stdout: string },
): Promise<{ installed: boolean }> {
  c.log.info(msg('packages.checking'));
  const missing = marked(r.stdout, 'PORTICO_MISSING');
  let facts = r.stdout;
  if (missing.length === 0) {
    c.log.info(msg('packages.present'));
  } else {
    // The names installed are Portico's constants, never what the server printed.
    const wanted = (['nginx', 'certbot'] as const).filter((name) => missing.includes(name));
    const { tool, result: install } = await installPackages(c, wanted);
    const after = await asRoot(c.session, PRESENT);
    const still = marked(after.stdout, 'PORTICO_MISSING');
    if (install.code !== 0 || still.length > 0) {
      const what =
        install.code === 0
          ? msg('packages.stillMissing', { tool, missing: joinAnd(still) })
          : msg('packages.installFailed', { tool, code: String(install.code) });
      const hint = msg(c.server.family === 'rhel' ? 'packages.epelHint' : 'packages.mirrorHint');
      throw new StepError(
        'package_install_failed',
        'packages',
        withOutput(msg('packages.failed', { what, hint, tool }), outputOf(install)),
      );
    }
    c.log.success(msg('packages.installed', { missing: joinAnd(missing) }));
    facts = (await asRoot(c.session, SELINUX_STATE)).stdout;
  }

  if (marked(facts, 'PORTICO_SELINUX')[0] === 'off') {
    const selinux = await asRoot(c.session, SELINUX_SET);
    const state = marked(selinux.stdout, 'PORTICO_SELINUX')[0];
    if (state === 'enabled') {
      c.log.info(msg('packages.selinuxOn'));
    } else {
      const output = selinux.stdout.replace(/^PORTICO_SELINUX=.*$/m, '').trim();
      c.log.warning(msg('packages.selinuxFailed', { output }));
    }
  }

  const status = missing.length === 0 ? parseNginxStatus(r.stdout) : await nginxStatus(c);
  if (status.version) c.log.info(msg('packages.version', { version: status.version }));
  if (!status.running) {
    c.log.info(msg('packages.notRunning'));
    await startNginx(c, 'packages');
  } else {
    c.log.info(msg('packages.running'));
  }
  return { installed: missing.length > 0 };
}
