// The site record's look (site-record.ts SURVEY) run by bash on this machine against a directory
// laid out as a server's: what it says of an uploaded certificate (issue 41).
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestPki } from '../../../test/support/test-pki';
import { SURVEY, uploadOf } from './site-record';

const pki = createTestPki();
const root = mkdtempSync(join(tmpdir(), 'portico-survey-'));
afterAll(() => {
  pki.remove();
  rmSync(root, { recursive: true, force: true });
});

const DAY = 86_400_000;
const leaf = pki.leaf({
  names: ['app.example.com'],
  from: new Date(Date.now() - DAY),
  to: new Date(Date.now() + 30 * DAY),
});

/** A server's layout under a fresh directory: the site file, and uploads by version. */
function server(site: string, versions: string[]) {
  const dir = mkdtempSync(join(root, 's-'));
  const up = join(dir, 'certificates', 'app.example.com');
  for (const v of versions) {
    mkdirSync(join(up, v), { recursive: true });
    writeFileSync(join(up, v, 'fullchain.pem'), `${leaf.cert}${pki.caPem}`);
    writeFileSync(join(up, v, 'privkey.pem'), leaf.key);
  }
  const file = join(dir, 'proxy-app.example.com');
  writeFileSync(file, site.replaceAll('$UP', up));
  const stdout = execFileSync(
    'bash',
    ['-c', SURVEY, 'survey', 'app.example.com', join(dir, 'le'), up, file, join(dir, 'absent')],
    { encoding: 'utf8' },
  );
  return { up, stdout };
}

const naming = (chain: string) =>
  `server {\n    ssl_certificate ${chain};\n    ssl_certificate_key /x/privkey.pem;\n}\n`;

describe('the look at an uploaded certificate', () => {
  it('the one the site file names: its chain file, fingerprint and expiry', () => {
    const { up, stdout } = server(naming('$UP/bbbbbbbbbbbbbbbb/fullchain.pem'), [
      'aaaaaaaaaaaaaaaa',
      'bbbbbbbbbbbbbbbb',
    ]);
    const cert = new X509Certificate(leaf.cert);
    expect(uploadOf(stdout)).toEqual({
      path: `${up}/bbbbbbbbbbbbbbbb/fullchain.pem`,
      fingerprint: cert.fingerprint256,
      expiresAt: new Date(cert.validTo),
    });
  });

  it('one left on the server that the site no longer names (a removal takes it)', () => {
    const { up, stdout } = server(naming('/etc/letsencrypt/live/app.example.com/fullchain.pem'), [
      'aaaaaaaaaaaaaaaa',
    ]);
    expect(uploadOf(stdout)?.path).toBe(`${up}/aaaaaaaaaaaaaaaa/fullchain.pem`);
  });

  it('none there: none recorded', () => {
    const { stdout } = server(naming('/etc/letsencrypt/live/app.example.com/fullchain.pem'), []);
    expect(stdout).toContain('PORTICO_SURVEYED=done');
    expect(uploadOf(stdout)).toBeNull();
  });
});

describe('the look at a site served with another lineage (a wildcard of the same server)', () => {
  it('reports the lineage the site file names, with its certificate', () => {
    const dir = mkdtempSync(join(root, 'w-'));
    const le = join(dir, 'le');
    const live = join(le, 'live', '_wildcard.example.com');
    mkdirSync(live, { recursive: true });
    writeFileSync(join(live, 'cert.pem'), leaf.cert);
    const file = join(dir, 'proxy-app.example.com');
    writeFileSync(file, naming(`${live}/fullchain.pem`));
    const look = (site: string) =>
      execFileSync('bash', ['-c', SURVEY, 'survey', 'app.example.com', le, join(dir, 'up'), site], {
        encoding: 'utf8',
      });
    const stdout = look(file);
    expect(stdout).toContain('PORTICO_CERT_NAME=_wildcard.example.com\n');
    expect(stdout).toContain('PORTICO_CERT=yes\n');
    expect(stdout).toContain(leaf.cert.trim());
    // A site naming no lineage of that directory reports none.
    writeFileSync(file, naming('/somewhere/else/fullchain.pem'));
    expect(look(file)).not.toContain('PORTICO_CERT');
  });
});
