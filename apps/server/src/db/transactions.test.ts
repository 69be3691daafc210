// What is written together lands together or not at all (db/transaction.ts), over the real API
// on PGlite and PostgreSQL. The audit insert is made to fail by a real CHECK constraint on
// audit_log that refuses one action; each change is then answered 500 and nothing of it is
// stored: the row write is rolled back, sessions stay signed in, codes stay usable, the cached
// user is not stale. A deployment's end writes its run and its configuration together.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../test/support/proxies-test-helpers';
import type { TTestApp } from '../../test/support/test-app';
import { newCredentials, TestClient } from '../../test/support/test-client';
import { testDatabaseKinds } from '../../test/support/test-database';
import {
  clockedApp,
  freshCode,
  signInWithCode,
  type TClock,
} from '../../test/support/two-factor-test-helpers';

describe.each(testDatabaseKinds())('writes that land together on %s', (kind) => {
  let t: TTestApp;
  let clock: TClock;
  beforeAll(async () => {
    ({ t, clock } = await clockedApp(kind));
  });
  afterAll(async () => t?.close());

  /**
   * Runs `work` while `table` refuses new rows whose `column` is `value` (a real constraint; `not
   * valid` leaves the rows already there alone).
   */
  async function refusingIn<T>(
    table: string,
    column: string,
    value: string,
    work: () => Promise<T>,
  ): Promise<T> {
    const db = t.database.db;
    await db.execute(
      sql.raw(
        `alter table ${table} add constraint refuse_one check (${column} <> '${value}') not valid`,
      ),
    );
    try {
      return await work();
    } finally {
      await db.execute(sql.raw(`alter table ${table} drop constraint refuse_one`));
    }
  }

  /** Runs `work` while audit_log refuses `action`. */
  const refusing = <T>(action: string, work: () => Promise<T>) =>
    refusingIn('audit_log', 'action', action, work);

  async function account() {
    const creds = newCredentials('tx');
    const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    expect((await client.register(creds)).statusCode).toBe(201);
    return { client, creds };
  }

  const me = async (client: TestClient) => (await client.me()).json();

  it('profile and e-mail: the row stays as it was, also as the cached user', async () => {
    const { client, creds } = await account();
    await me(client); // the user row is now cached (PGlite)
    const profile = await refusing('account.profile', () =>
      client.write('PUT', '/api/account/profile', { firstName: 'Ada', lastName: 'Lovelace' }),
    );
    expect(profile.statusCode).toBe(500);
    expect((await me(client)).firstName).toBeNull();

    const email = await refusing('account.email', () =>
      client.write('PUT', '/api/account/email', {
        email: `new-${creds.email}`,
        currentPassword: creds.password,
      }),
    );
    expect(email.statusCode).toBe(500);
    expect((await me(client)).email).toBe(creds.email);

    // Without the refusal the same change goes through and is seen at once.
    const saved = await client.write('PUT', '/api/account/profile', {
      firstName: 'Ada',
      lastName: '',
    });
    expect(saved.statusCode).toBe(200);
    expect((await me(client)).firstName).toBe('Ada');
  });

  it('certificate alert settings: e-mail alerts stay as they were', async () => {
    const { client } = await account();
    const settings = async () =>
      (await client.request({ method: 'GET', url: '/api/account/notifications' })).json();
    expect((await settings()).emailEnabled).toBe(true);
    const saved = await refusing('account.notifications', () =>
      client.write('PUT', '/api/account/notifications', { emailEnabled: false }),
    );
    expect(saved.statusCode).toBe(500);
    expect((await settings()).emailEnabled).toBe(true);
  });

  it('password: the old one still signs in and the other session is not ended', async () => {
    const { client, creds } = await account();
    const other = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    expect((await other.login(creds.username, creds.password)).statusCode).toBe(200);
    const changed = await refusing('account.password', () =>
      client.write('PUT', '/api/account/password', {
        currentPassword: creds.password,
        newPassword: 'Another456',
      }),
    );
    expect(changed.statusCode).toBe(500);
    expect((await other.me()).statusCode).toBe(200);
    const third = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    expect((await third.login(creds.username, creds.password)).statusCode).toBe(200);
  });

  it('ending one session or all others: they stay signed in', async () => {
    const { client, creds } = await account();
    const other = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    expect((await other.login(creds.username, creds.password)).statusCode).toBe(200);
    // As stored: the list is read from the table, not from the session store's memory.
    const listed = async () =>
      (await client.request({ method: 'GET', url: '/api/account/sessions' })).json() as {
        id: string;
        current: boolean;
      }[];
    const theirs = (await listed()).find((s) => !s.current)!;

    const one = await refusing('account.session_end', () =>
      client.write('DELETE', `/api/account/sessions/${theirs.id}`),
    );
    expect(one.statusCode).toBe(500);
    expect(await listed()).toHaveLength(2);
    expect((await other.me()).statusCode).toBe(200);

    const all = await refusing('account.sessions_end_others', () =>
      client.write('POST', '/api/account/sessions/end-others'),
    );
    expect(all.statusCode).toBe(500);
    expect(await listed()).toHaveLength(2);
    expect((await other.me()).statusCode).toBe(200);
  });

  it('two-factor: turning on, new codes, a used recovery code and turning off undo', async () => {
    const { client, creds } = await account();
    const setup = await client.write('POST', '/api/account/two-factor/setup');
    const secret = setup.json().secret as string;
    const code = freshCode(secret, clock);
    const on = await refusing('account.two_factor_on', () =>
      client.write('POST', '/api/account/two-factor/confirm', { code }),
    );
    expect(on.statusCode).toBe(500);
    const status = async () =>
      (await client.request({ method: 'GET', url: '/api/account/two-factor' })).json();
    expect((await status()).enabled).toBe(false);
    // The code's time step was claimed inside the transaction: it was given back.
    const confirmed = await client.write('POST', '/api/account/two-factor/confirm', { code });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().recoveryCodes as string[];

    const renewed = await refusing('account.recovery_codes_new', () =>
      client.write('POST', '/api/account/two-factor/recovery-codes', {
        password: creds.password,
      }),
    );
    expect(renewed.statusCode).toBe(500);
    expect((await status()).recoveryCodesLeft).toBe(codes.length);

    const browser = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const used = await refusing('account.recovery_code_used', () =>
      signInWithCode(browser, creds.username, creds.password, codes[0]!),
    );
    expect(used.statusCode).toBe(500);
    expect((await status()).recoveryCodesLeft).toBe(codes.length);
    const again = await signInWithCode(browser, creds.username, creds.password, codes[0]!);
    expect(again.statusCode).toBe(200);

    const off = await refusing('account.two_factor_off', () =>
      client.write('POST', '/api/account/two-factor/disable', { password: creds.password }),
    );
    expect(off.statusCode).toBe(500);
    expect(await status()).toMatchObject({ enabled: true, recoveryCodesLeft: codes.length - 1 });
  });

  it("an admin's role change: the role stays, also as the cached user", async () => {
    const admin = await signedInClient(t, 'admin');
    const member = await signedInClient(t, 'user');
    expect((await member.client.me()).json().role).toBe('user');
    const changed = await refusing('admin.user.role', () =>
      admin.client.write('PATCH', `/api/admin/users/${member.user.id}/role`, { role: 'admin' }),
    );
    expect(changed.statusCode).toBe(500);
    expect((await member.client.me()).json().role).toBe('user');
    expect(
      (await member.client.request({ method: 'GET', url: '/api/admin/users' })).statusCode,
    ).toBe(403);
  });

  it('a configuration: create, save, edit, reset, forget the host key and delete undo', async () => {
    const { client } = await signedInClient(t, 'user');
    const mine = async () =>
      (await client.request({ method: 'GET', url: '/api/user/proxy-configurations' })).json() as {
        id: string;
        domain: string;
        status: string;
      }[];
    const created = await refusing('proxy.create', () =>
      client.write('POST', '/api/proxy-configurations', {
        serverIp: '203.0.113.10',
        domain: 'refused-create.example.com',
        sshUser: 'root',
        sshPassword: 'Sup3r-Secret-SSH-pass',
        email: 'admin@example.com',
        targetServer: 'http://10.0.0.5:8080',
      }),
    );
    expect(created.statusCode).toBe(500);
    expect(await mine()).toEqual([]);

    const { id, input } = await createProxy(client, { hostKeyFingerprint: undefined });
    const saved = await refusing('proxy.save', () =>
      client.write('POST', '/api/proxy-configurations', {
        ...input,
        configurationId: id,
        domain: 'refused-save.example.com',
      }),
    );
    expect(saved.statusCode).toBe(500);
    const edited = await refusing('proxy.edit', () =>
      client.write('PUT', `/api/user/proxy-configurations/${id}`, {
        ...input,
        sshPassword: undefined,
        email: undefined,
        domain: 'refused-edit.example.com',
      }),
    );
    expect(edited.statusCode).toBe(500);
    expect((await mine())[0]?.domain).toBe(input.domain);

    await t.database.db.execute(
      sql`update proxy_configurations set status = 'failed', host_key_fingerprint = 'SHA256:kept' where id = ${id}`,
    );
    const reset = await refusing('proxy.reset', () =>
      client.write('PATCH', `/api/proxy-configurations/${id}/reset`),
    );
    expect(reset.statusCode).toBe(500);
    expect((await mine())[0]?.status).toBe('failed');
    const forgot = await refusing('proxy.forget_host_key', () =>
      client.write('DELETE', `/api/proxy-configurations/${id}/host-key`),
    );
    expect(forgot.statusCode).toBe(500);
    const pinned = await t.database.db.execute(
      sql`select host_key_fingerprint from proxy_configurations where id = ${id}`,
    );
    expect(JSON.stringify(pinned)).toContain('SHA256:kept');

    const deleted = await refusing('proxy.delete', () =>
      client.write('DELETE', `/api/proxy-configurations/${id}?removeFromServer=false`),
    );
    expect(deleted.statusCode).toBe(500);
    expect((await mine()).map((p) => p.id)).toEqual([id]);
  });

  it("a deployment's end: the run is not recorded failed while its configuration stays deploying", async () => {
    const { client } = await signedInClient(t, 'user');
    // Port 1 on loopback refuses at once: the real engine fails at its connect step.
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const { run, job } = await refusingIn('proxy_configurations', 'status', 'failed', async () => {
      const started = await client.write('POST', `/api/deploy/${id}`);
      expect(started.statusCode).toBe(202);
      const deploymentId = started.json().deploymentId as string;
      // The job's attempt is over once pg-boss has recorded how it ended (no retries).
      for (;;) {
        const result = (await t.database.db.execute(
          sql`select d.status as run, j.state as job from deployments d join pgboss.job j on j.id::text = d.job_id where d.id = ${deploymentId}`,
        )) as unknown as { rows: { run: string; job: string }[] };
        const [row] = result.rows;
        if (row && (row.job === 'failed' || row.job === 'completed')) return row;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    // The configuration could not be written failed, so neither was the run.
    expect(job).toBe('failed');
    expect(run).toBe('running');
    const stored = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(stored.json().status).toBe('deploying');
  });
});
