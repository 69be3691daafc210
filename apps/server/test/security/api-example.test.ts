// The API token example of docs/OPERATIONS.md, run as it is written (bash, curl, jq)
// against the real app on PGlite and PostgreSQL: create a configuration with a `manage` token,
// deploy it, follow its log until the run ends, list. The server is a closed local port, so the
// run fails fast and offline; the example must still show every step and the end.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, uniqueDomain } from '../support/proxies-test-helpers';
import { runProcess } from '../support/spawn';
import { createTestApp, type TTestApp } from '../support/test-app';
import { testDatabaseKinds } from '../support/test-database';

const OPERATIONS = new URL('../../../../docs/OPERATIONS.md', import.meta.url);

/** The ```sh block right after the api-example marker, verbatim. */
function exampleBlock(): string {
  const doc = readFileSync(OPERATIONS, 'utf8');
  const match = /<!-- api-example:[^>]*-->\n```sh\n([\s\S]*?)\n```/.exec(doc);
  if (!match) throw new Error('docs/OPERATIONS.md has no api-example block');
  return match[1]!;
}

/** The block under bash, as a reader would run it (stdin not a socket: Debian's bash would take
 * the run for an ssh session and read ~/.bashrc). */
const runBash = (script: string, env: Record<string, string>) =>
  runProcess('bash', ['-c', script], { env, input: null, timeoutMs: 90_000 });

describe.each(testDatabaseKinds())('the curl example of OPERATIONS.md on %s', (kind) => {
  let t: TTestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('creates, deploys, follows the log to the end and lists, with a token', {
    timeout: 120_000,
  }, async () => {
    const { client, password } = await signedInClient(t);
    const created = await client.write('POST', '/api/account/tokens', {
      name: 'docs example',
      scope: 'manage',
      expiresInDays: 1,
      password,
    });
    const domain = uniqueDomain('curl');
    const result = await runBash(exampleBlock(), {
      PORTICO: base,
      TOKEN: created.json().token,
      DOMAIN: domain,
      SERVER_IP: '127.0.0.1',
      SSH_PORT: '1',
      SSH_USER: 'root',
      SSH_PASSWORD: 'Example-pass-1',
      TARGET: 'http://10.0.0.5:8080',
      EMAIL: 'ops@example.com',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const id = /^configuration ([0-9a-f-]{36})$/.exec(lines[0]!)?.[1];
    expect(id, result.stdout).toBeDefined();
    expect(lines[1]).toMatch(/^deployment [0-9a-f-]{36}$/);
    // The log as the example prints it, then the end, then the list.
    const logLines = lines.slice(2, lines.indexOf('finished: failed'));
    expect(logLines.length, result.stdout).toBeGreaterThan(1);
    expect(logLines.every((l) => /^(info|success|warning|error)\t/.test(l))).toBe(true);
    expect(logLines.some((l) => l.startsWith('error\t'))).toBe(true);
    expect(lines).toContain('finished: failed');
    expect(lines.at(-1)).toBe(`${domain}\tfailed`);

    // What the script printed is what the API holds.
    const stored = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(stored.json()).toMatchObject({ domain, status: 'failed' });
    // The example sends no Accept-Language, so it read the log in the default language.
    const log = await client.request({
      method: 'GET',
      url: `/api/deployment-logs/${id}`,
      headers: { 'accept-language': 'es' },
    });
    expect(log.json().map((l: { message: string }) => l.message)).toEqual(
      logLines.map((l) => l.split('\t')[1]),
    );
  });
});
