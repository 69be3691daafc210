// The kept dump against a real `nginx -T` of a scratch configuration (nothing under /etc): the
// preflight's part (KEPT_DUMP_PART) run by bash on this machine, a `nginx` on its PATH pointed
// at the scratch prefix. Whatever changes a file nginx reads makes the server say "not the same".
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FUNCTIONS, parseNginxTest } from './nginx-control';
import { DUMP_FUNCTIONS, DUMP_TEST, KEPT_DUMP_PART, serverNameOwners } from './nginx-dump';
import {
  dumpOfAnswer,
  dumpPlace,
  keptDumpArgs,
  NginxDumpCache,
  type TDumpPlace,
} from './nginx-dump-cache';

const SCRIPT = `${DUMP_FUNCTIONS}\n${KEPT_DUMP_PART}\necho PORTICO_REST="$*"`;
const FINGERPRINT = 'SHA256:scratch';

let root = '';
let dir = '';
let at: TDumpPlace;
let places = 0;

function site(name: string): string {
  return `server {\n    listen 127.0.0.1:1;\n    server_name ${name};\n    return 204;\n}\n`;
}

beforeEach(() => {
  // The configuration apart from what nginx writes as it tests (its log, its pid file).
  root = mkdtempSync(join(tmpdir(), 'portico-kept-dump-'));
  dir = join(root, 'conf');
  at = dumpPlace({ serverIp: '192.0.2.1', sshPort: ++places }, new NginxDumpCache())!;
  for (const d of ['conf', 'conf/sites', 'conf/avail', 'bin', 'run']) mkdirSync(join(root, d));
  const run = join(root, 'run');
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      `pid ${run}/nginx.pid;`,
      `error_log ${run}/error.log;`,
      'events {}',
      'http {',
      `    client_body_temp_path ${run}; proxy_temp_path ${run}; fastcgi_temp_path ${run};`,
      `    uwsgi_temp_path ${run}; scgi_temp_path ${run}; access_log off;`,
      `    include ${dir}/sites/*;`,
      '    include extra.conf;',
      '}',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'extra.conf'), 'server_names_hash_bucket_size 128;\n');
  writeFileSync(join(dir, 'avail', 'a'), site('a.test'));
  symlinkSync(join(dir, 'avail', 'a'), join(dir, 'sites', 'a'));
  writeFileSync(join(dir, 'sites', 'b'), site('b.test'));
  writeFileSync(
    join(root, 'bin', 'nginx'),
    `#!/bin/sh\nexec /usr/sbin/nginx -p ${run}/ -c ${dir}/nginx.conf "$@"\n`,
    { mode: 0o755 },
  );
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Past the margin a signature leaves for a change in the clock's same tick. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

function onScratch(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('bash', ['-c', script, 'portico', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env, PATH: `${join(root, 'bin')}:${process.env.PATH}` },
  });
}

function preflight(): string {
  return onScratch(SCRIPT, [...keptDumpArgs(at), 'survey', 'args']);
}

/** A first look (nothing kept), then the dump kept as a deployment keeps it. */
async function primed(): Promise<string> {
  await settle();
  const first = preflight();
  expect(first).not.toContain('PORTICO_DUMP_SAME');
  expect(first).toMatch(/^PORTICO_DUMP_SIG=[0-9a-f]{64}$/m);
  const dump = dumpOfAnswer(at, FINGERPRINT, first)!;
  expect(serverNameOwners(dump, 'a.test')).toEqual([join(dir, 'sites', 'a')]);
  return dump;
}

describe('a dump kept for a server', () => {
  it('stands in for nginx -T while nothing nginx reads changed; the arguments after it are left', async () => {
    const dump = await primed();
    const again = preflight();
    expect(again).toMatch(/^PORTICO_DUMP_SAME=[0-9a-f]{64}$/m);
    expect(again).not.toContain('PORTICO_DUMP:');
    expect(again).toMatch(/^PORTICO_REST=survey args$/m);
    expect(dumpOfAnswer(at, FINGERPRINT, again)).toBe(dump);
    // Another machine at the same address (another host key): the caller reads the dump itself.
    expect(dumpOfAnswer(at, 'SHA256:other', again)).toBeUndefined();
  });

  it.each([
    [
      'a file added where an include pattern reads',
      () => writeFileSync(join(dir, 'sites', 'c'), site('c.test')),
    ],
    ['a file removed', () => unlinkSync(join(dir, 'sites', 'b'))],
    [
      'a file edited in place, same size',
      () => writeFileSync(join(dir, 'sites', 'b'), site('x.test')),
    ],
    ['a linked file edited', () => writeFileSync(join(dir, 'avail', 'a'), site('z.test'))],
    [
      'a link pointed elsewhere',
      () => {
        writeFileSync(join(dir, 'avail', 'c'), site('c.test'));
        symlinkSync(join(dir, 'avail', 'c'), join(dir, 'sites', '.a.new'));
        renameSync(join(dir, 'sites', '.a.new'), join(dir, 'sites', 'a'));
      },
    ],
    [
      'a file included by a relative path edited',
      () => writeFileSync(join(dir, 'extra.conf'), 'server_names_hash_bucket_size 256;\n'),
    ],
    [
      'the main file edited',
      () =>
        writeFileSync(
          join(dir, 'nginx.conf'),
          readFileSync(join(dir, 'nginx.conf'), 'utf8').replace(
            'access_log off;',
            'access_log  off;',
          ),
        ),
    ],
  ])('is not believed after %s: the dump is read again', async (_, change) => {
    await primed();
    change();
    await settle();
    const after = preflight();
    expect(after).not.toContain('PORTICO_DUMP_SAME');
    expect(after).toContain('PORTICO_DUMP:# configuration file');
    // The fresh dump is kept in turn.
    expect(after).toMatch(/^PORTICO_DUMP_SIG=[0-9a-f]{64}$/m);
    dumpOfAnswer(at, FINGERPRINT, after);
    expect(preflight()).toContain('PORTICO_DUMP_SAME=');
  });

  it('sees the server name a new file serves', async () => {
    await primed();
    writeFileSync(join(dir, 'sites', 'c'), site('a.test'));
    await settle();
    const dump = dumpOfAnswer(at, FINGERPRINT, preflight())!;
    expect(serverNameOwners(dump, 'a.test').sort()).toEqual(
      [join(dir, 'sites', 'a'), join(dir, 'sites', 'c')].sort(),
    );
  });

  it('keeps nothing when a file changed just before the read (the same tick could hide a second change)', () => {
    // Written by the script itself just before its read, its time then set three seconds
    // ahead: what the rule sees is a file not older than the 50 ms margin when the read starts,
    // and on a loaded machine more than 50 ms can pass between any write and that moment.
    const b = join(dir, 'sites', 'b');
    const first = onScratch(
      `printf '%s' "$B_SITE" > ${b}\ntouch -d "@$(( $(date +%s) + 3 ))" ${b}\n${SCRIPT}`,
      [...keptDumpArgs(at), 'survey', 'args'],
      { B_SITE: site('b.test') },
    );
    expect(first).toContain('PORTICO_DUMP:# configuration file');
    expect(first).not.toContain('PORTICO_DUMP_SIG');
    dumpOfAnswer(at, FINGERPRINT, first);
    expect(keptDumpArgs(at)).toEqual(['-', '0']);
  });

  it('keeps nothing when an include the signature cannot follow brought files in', async () => {
    // Two includes on one line: the second's files would go unwatched.
    const conf = readFileSync(join(dir, 'nginx.conf'), 'utf8');
    writeFileSync(
      join(dir, 'nginx.conf'),
      conf.replace('    include extra.conf;', `    include extra.conf; include ${dir}/more/*;`),
    );
    mkdirSync(join(dir, 'more'));
    writeFileSync(join(dir, 'more', 'm'), site('m.test'));
    await settle();
    const first = preflight();
    expect(serverNameOwners(dumpOfAnswer(at, FINGERPRINT, first)!, 'm.test')).toEqual([
      join(dir, 'more', 'm'),
    ]);
    expect(first).not.toContain('PORTICO_DUMP_SIG');
    expect(keptDumpArgs(at)).toEqual(['-', '0']);
  });

  it('keeps nothing for a pattern whose directory is itself a pattern', async () => {
    mkdirSync(join(dir, 'd1'));
    writeFileSync(join(dir, 'd1', 'x.conf'), site('d.test'));
    const conf = readFileSync(join(dir, 'nginx.conf'), 'utf8');
    writeFileSync(
      join(dir, 'nginx.conf'),
      conf.replace(
        '    include extra.conf;',
        `    include extra.conf;\n    include ${dir}/d*/x.conf;`,
      ),
    );
    await settle();
    const first = preflight();
    expect(first).toContain(`# configuration file ${dir}/d1/x.conf:`);
    expect(first).not.toContain('PORTICO_DUMP_SIG');
  });

  it('refuses to keep what the server printed outside the allowlist', () => {
    const answer = [
      'PORTICO_DUMP:# configuration file /etc/nginx/nginx.conf:',
      `PORTICO_DUMP_SIG=${'a'.repeat(64)}`,
      'PORTICO_DUMP_WATCH=/etc/nginx/nginx.conf',
      'PORTICO_DUMP_WATCH=/etc/nginx/$(reboot)',
    ].join('\n');
    dumpOfAnswer(at, FINGERPRINT, answer);
    expect(keptDumpArgs(at)).toEqual(['-', '0']);
    dumpOfAnswer(at, FINGERPRINT, answer.split('\n').slice(0, 3).join('\n'));
    expect(keptDumpArgs(at)).toEqual([`${'a'.repeat(64)}`, '1', '/etc/nginx/nginx.conf']);
  });
});

describe('nginx -T as the gate of the HTTPS site step', () => {
  const GATE = `${FUNCTIONS}\n${DUMP_FUNCTIONS}\n${DUMP_TEST}`;
  const test = (stdout: string) => {
    const lines = stdout.split('\n').filter((l) => l.startsWith('PORTICO_TEST:'));
    const code = lines.find((l) => l.startsWith('PORTICO_TEST:PORTICO_CODE='))!.split('=')[1]!;
    const said = lines.filter((l) => !l.includes('PORTICO_CODE=')).map((l) => l.slice(13));
    return parseNginxTest(Number(code), said.join('\n'));
  };

  it('passes as nginx -t would, with the dump and its signature: what was written just before is kept', () => {
    // Written right before the gate, as the step's own files are.
    writeFileSync(join(dir, 'sites', 'c'), site('c.test'));
    const stdout = onScratch(GATE);
    expect(test(stdout)).toMatchObject({
      ok: true,
      output: expect.stringContaining('test is successful'),
    });
    expect(stdout).not.toMatch(/^PORTICO_TEST:# configuration file/m);
    const dump = dumpOfAnswer(at, FINGERPRINT, stdout)!;
    expect(serverNameOwners(dump, 'c.test')).toEqual([join(dir, 'sites', 'c')]);
    expect(preflight()).toContain('PORTICO_DUMP_SAME=');
  });

  it('fails as nginx -t would, saying why, with no dump and nothing kept', () => {
    writeFileSync(join(dir, 'sites', 'c'), 'this_is_not_a_directive on;\n');
    const stdout = onScratch(GATE);
    const result = test(stdout);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('unknown directive "this_is_not_a_directive"');
    expect(stdout).not.toContain('PORTICO_DUMP');
    dumpOfAnswer(at, FINGERPRINT, stdout);
    expect(keptDumpArgs(at)).toEqual(['-', '0']);
  });
});
