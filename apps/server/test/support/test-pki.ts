import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTestTempDir, testTempDir } from './temp-dir';

/**
 * A throwaway certificate authority made with the real openssl, for tests that need a TLS server
 * with a certificate of a given lifetime, names or issuer (expired, not yet valid, wrong name).
 */
export interface TTestPki {
  caPem: string;
  /** A leaf for `names`, valid from `from` to `to`, signed by the CA (or self-signed). */
  leaf(options: { names: string[]; from: Date; to: Date; selfSigned?: boolean }): {
    key: string;
    cert: string;
  };
  remove(): void;
}

const openssl = (dir: string, args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** A new P-256 key into `keyFile`, with its request (or self-signed CA certificate). */
const NEW_KEY = (keyFile: string) => [
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:P-256',
  '-nodes',
  '-keyout',
  keyFile,
];

/** openssl ca's date format: YYYYMMDDHHMMSSZ. */
function stamp(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

export function createTestPki(): TTestPki {
  const dir = testTempDir('portico-pki-');
  openssl(dir, [
    'req',
    '-x509',
    ...NEW_KEY('ca.key'),
    '-out',
    'ca.pem',
    '-days',
    '3650',
    '-subj',
    '/CN=Portico Test CA',
  ]);
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  writeFileSync(
    join(dir, 'ca.cnf'),
    [
      '[ca]',
      'default_ca = test',
      '[test]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'serial = $dir/serial',
      'new_certs_dir = $dir',
      'certificate = $dir/ca.pem',
      'private_key = $dir/ca.key',
      'default_md = sha256',
      'policy = any',
      'unique_subject = no',
      'copy_extensions = none',
      '[any]',
      'commonName = supplied',
    ].join('\n'),
  );
  let n = 0;
  return {
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    leaf({ names, from, to, selfSigned }) {
      n += 1;
      const key = `leaf${n}.key`;
      const csr = `leaf${n}.csr`;
      const cert = `leaf${n}.pem`;
      const ext = `leaf${n}.ext`;
      writeFileSync(
        join(dir, ext),
        `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}\n`,
      );
      openssl(dir, ['req', ...NEW_KEY(key), '-out', csr, '-subj', `/CN=${names[0]}`]);
      openssl(dir, [
        'ca',
        '-batch',
        '-config',
        'ca.cnf',
        ...(selfSigned ? ['-selfsign', '-keyfile', key] : []),
        '-in',
        csr,
        '-out',
        cert,
        '-startdate',
        stamp(from),
        '-enddate',
        stamp(to),
        '-extfile',
        ext,
        '-notext',
      ]);
      return {
        key: readFileSync(join(dir, key), 'utf8'),
        cert: readFileSync(join(dir, cert), 'utf8'),
      };
    },
    remove: () => removeTestTempDir(dir),
  };
}
