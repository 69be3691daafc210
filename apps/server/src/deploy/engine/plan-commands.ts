import { ACME_WEBROOT } from '../nginx-site';
import { certName } from '../site-names';
import type { TServerFacts } from './step-context';

export type TPlannedCommandKind =
  | 'install'
  | 'selinux'
  | 'start'
  | 'test'
  | 'reload'
  | 'certificate-issue'
  | 'certificate-keep'
  | 'certificate-upload'
  | 'certificate-upload-remove'
  | 'custom-script'
  | 'renewal-check';

/** A command the deployment will run on the server, as the plan shows it (kind for the words). */
export interface TPlannedCommand {
  kind: TPlannedCommandKind;
  command: string;
}

export interface TCommandFacts {
  server: TServerFacts;
  domain: string;
  /** Of nginx and certbot, those not installed (Portico's constant names). */
  missing: ('nginx' | 'certbot')[];
  selinuxOff: boolean;
  nginxRunning: boolean;
  hasCertificate: boolean;
  customScript: boolean;
  /** The uploaded certificate's directory, when the proxy has one: certbot is not run. */
  upload?: string;
  /** Portico's directory of the domain's uploads, when the server has one (an earlier upload). */
  uploadedDir?: string;
  /** Another proxy's wildcard certificate the site is served with: certbot is not run for it. */
  shared?: boolean;
}

/**
 * The commands a deployment runs, in the engine's order (README.md "Steps"), from the facts the
 * plan read: what the packages step installs only when missing, which certbot run (none with an
 * uploaded certificate: its files instead), the test gate and the reload of each site step,
 * the removal of uploads the site no longer names, the custom script, the renewal check.
 */
export function plannedCommands(f: TCommandFacts): TPlannedCommand[] {
  const systemd = f.server.systemd;
  const commands: TPlannedCommand[] = [];
  if (f.missing.length > 0) {
    const tool = f.server.family === 'debian' ? 'apt-get' : 'dnf';
    commands.push({ kind: 'install', command: `${tool} install -y ${f.missing.join(' ')}` });
  }
  if (f.selinuxOff) {
    commands.push({ kind: 'selinux', command: 'setsebool -P httpd_can_network_connect 1' });
  }
  if (!f.nginxRunning || f.missing.includes('nginx')) {
    commands.push({ kind: 'start', command: systemd ? 'systemctl enable --now nginx' : 'nginx' });
  }
  const test: TPlannedCommand = { kind: 'test', command: 'nginx -t' };
  // The running master is signalled itself (nginx-control.ts RELOAD_BODY): what `nginx -s
  // reload` sends, without its parse of the whole configuration.
  const reload: TPlannedCommand = { kind: 'reload', command: 'kill -HUP <nginx master>' };
  // The upload is written before step 4, whose `nginx -t` is its gate.
  if (f.upload) {
    commands.push({ kind: 'certificate-upload', command: `install -d -m 0700 ${f.upload}` });
  }
  // Step 4 reloads whatever it wrote, so nginx serves the site files as they are on disk.
  commands.push(test, reload);
  const kept = f.hasCertificate || Boolean(f.upload) || f.shared === true;
  if (!f.upload && !f.shared) {
    const certbot = `certbot certonly --webroot -w ${ACME_WEBROOT} -d ${f.domain} --cert-name ${certName(f.domain)} --keep-until-expiring`;
    commands.push({
      kind: f.hasCertificate ? 'certificate-keep' : 'certificate-issue',
      command: certbot,
    });
  }
  // Step 6 tests again, with the dump the next run's preflight may take instead of a parse
  // (nginx-dump-cache.ts); it reloads only when the certificate is new (a kept one is live).
  commands.push({ kind: 'test', command: 'nginx -T' });
  if (!kept) commands.push(reload);
  // Once the site names only this upload (or certbot's certificate), the others go.
  if (f.uploadedDir) {
    const others = f.upload ? `$(ls -d ${f.uploadedDir}/* | grep -vx ${f.upload})` : f.uploadedDir;
    commands.push({ kind: 'certificate-upload-remove', command: `rm -rf -- ${others}` });
  }
  if (f.customScript)
    commands.push({ kind: 'custom-script', command: 'bash /tmp/portico-script-<random>.sh' });
  // Nothing renews an upload: its owner does.
  if (!f.upload) {
    commands.push({
      kind: 'renewal-check',
      command: systemd ? 'systemctl is-active certbot.timer' : 'grep certbot /etc/cron.d/*',
    });
  }
  return commands;
}
