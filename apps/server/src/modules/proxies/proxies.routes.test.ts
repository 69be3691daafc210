import { servingOf } from '@portico/shared/proxy/server-record';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  markDeployed,
  proxyInput,
  SSH_PASSWORD,
  seedServerSite,
  signedInClient,
  uniqueDomain,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, proxyConfigurations } from '../../db/schema';

describe.each(testDatabaseKinds())('proxy configurations API on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('creates a configuration, stores the password encrypted and never returns it', async () => {
    const { client, user } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    const row = (
      await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
    )[0]!;
    expect(row.userId).toBe(user.id);
    expect(row.sshPasswordEnc).toBeTruthy();
    expect(row.sshPasswordEnc).not.toContain(SSH_PASSWORD);

    const got = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({
      id,
      domain: input.domain,
      serverIp: input.serverIp,
      sshPort: 22,
      sshUser: 'root',
      hasSshPassword: true,
      status: 'pending',
      sslConfigured: false,
      changedSinceDeploy: false,
      targetServer: input.targetServer,
    });
    expect(got.body).not.toContain(SSH_PASSWORD);
    expect(got.body).not.toMatch(/sshPassword"|Enc/);
  });

  // Reads that come together are read together (db/batched-reads.ts): each still gets its own.
  it('answers reads that come at once each with their own list and configuration', async () => {
    const owners: { client: TestClient; ids: string[] }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { client } = await signedInClient(t, 'user', `10.8.0.${i + 1}`);
      const first = await createProxy(client);
      const second = await createProxy(client);
      owners.push({ client, ids: [second.id, first.id] });
    }
    const url = (id: string) => `/api/proxy-configurations/${id}`;
    const asked = owners.flatMap(({ client, ids }, i) => {
      const other = owners[(i + 1) % owners.length]!.ids[0]!;
      return [
        client.request({ method: 'GET', url: '/api/user/proxy-configurations' }).then((r) => {
          expect(r.statusCode).toBe(200);
          // Newest first, as one query per user gave them.
          expect(r.json().map((p: { id: string }) => p.id)).toEqual(ids);
        }),
        ...ids.map((id) =>
          client.request({ method: 'GET', url: url(id) }).then((r) => {
            expect(r.statusCode).toBe(200);
            expect(r.json().id).toBe(id);
          }),
        ),
        // Beside its owner's read of it, another user's configuration stays unseen.
        client.request({ method: 'GET', url: url(other) }).then((r) => {
          expect(r.statusCode).toBe(404);
        }),
        // An id in capitals is the same id.
        client.request({ method: 'GET', url: url(ids[0]!.toUpperCase()) }).then((r) => {
          expect(r.statusCode).toBe(200);
          expect(r.json().id).toBe(ids[0]);
        }),
      ];
    });
    await Promise.all(asked);
  });

  it('answers the validation messages in the caller language', async () => {
    const { client } = await signedInClient(t);
    const response = await client.write(
      'POST',
      '/api/proxy-configurations',
      proxyInput({ serverIp: '999.1', domain: 'nodot' }),
    );
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('validation_failed');
    const paths = body.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['serverIp', 'domain']));
    for (const issue of body.issues) expect(issue.message).not.toMatch(/^validation\./);
  });

  it('refuses a new configuration without a password', async () => {
    const { client } = await signedInClient(t);
    const response = await client.write(
      'POST',
      '/api/proxy-configurations',
      proxyInput({ sshPassword: undefined }),
    );
    expect(response.statusCode).toBe(400);
  });

  it('answers 409 when another configuration holds the domain, in any case', async () => {
    const a = await signedInClient(t);
    const b = await signedInClient(t);
    const { input } = await createProxy(a.client);
    const body = proxyInput({ domain: input.domain.toUpperCase() });
    // Another account's: neutral words, another code, nothing of the owner.
    const response = await b.client.write('POST', '/api/proxy-configurations', body);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      statusCode: 409,
      code: 'domain_managed',
      message:
        'This domain is already managed in Portico. Choose another domain or ask your administrator.',
      text: { key: 'errors.domainManaged' },
    });
    // The caller's own: it already exists.
    const own = await a.client.write('POST', '/api/proxy-configurations', body);
    expect(own.statusCode).toBe(409);
    expect(own.json()).toMatchObject({
      code: 'domain_taken',
      message: 'That domain is already configured in Portico.',
    });
  });

  it('updates through configurationId, keeping the password when none is sent', async () => {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client, { targetServer: undefined });
    const before = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    const fingerprint = `SHA256:${'A'.repeat(43)}`;
    const response = await client.write('POST', '/api/proxy-configurations', {
      ...input,
      sshPassword: undefined,
      configurationId: id,
      targetServer: 'http://10.0.0.9:3000',
      hostKeyFingerprint: fingerprint,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id });
    const got = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })
    ).json();
    expect(got).toMatchObject({
      targetServer: 'http://10.0.0.9:3000',
      hostKeyFingerprint: fingerprint,
      hasSshPassword: true,
    });
    const after = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    expect(after[0]!.sshPasswordEnc).toBe(before[0]!.sshPasswordEnc);
  });

  it('does not let another user update, read, edit, reset or delete a configuration (404)', async () => {
    const owner = await signedInClient(t);
    const other = await signedInClient(t);
    const { id, input } = await createProxy(owner.client);
    const c = other.client;
    const attempts = [
      () => c.write('POST', '/api/proxy-configurations', { ...input, configurationId: id }),
      () => c.request({ method: 'GET', url: `/api/proxy-configurations/${id}` }),
      () =>
        c.write('PUT', `/api/user/proxy-configurations/${id}`, {
          domain: uniqueDomain(),
          targetServer: 'http://10.0.0.1',
          serverIp: '203.0.113.1',
          sshUser: 'root',
        }),
      () => c.write('PATCH', `/api/proxy-configurations/${id}/reset`),
      () => c.write('DELETE', `/api/proxy-configurations/${id}?removeFromServer=false`),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    const list = await other.client.request({
      method: 'GET',
      url: '/api/user/proxy-configurations',
    });
    expect(list.json()).toEqual([]);
  });

  it('answers 401 to anonymous callers on every route', async () => {
    const owner = await signedInClient(t);
    const { id } = await createProxy(owner.client);
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrfToken();
    const responses = await Promise.all([
      anonymous.write('POST', '/api/proxy-configurations', proxyInput()),
      anonymous.request({ method: 'GET', url: `/api/proxy-configurations/${id}` }),
      anonymous.request({ method: 'GET', url: '/api/user/proxy-configurations' }),
      anonymous.write('POST', '/api/check-duplicate-configuration', {
        domain: 'a.example.com',
        serverIp: '203.0.113.1',
      }),
      anonymous.write('PATCH', `/api/proxy-configurations/${id}/reset`),
      anonymous.write('DELETE', `/api/proxy-configurations/${id}`),
    ]);
    for (const response of responses) expect(response.statusCode).toBe(401);
  });

  it('lets an admin read, reset and delete anyone configuration', async () => {
    const owner = await signedInClient(t);
    const admin = await signedInClient(t, 'admin');
    const { id } = await createProxy(owner.client);
    const got = await admin.client.request({
      method: 'GET',
      url: `/api/proxy-configurations/${id}`,
    });
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain(SSH_PASSWORD);
    const reset = await admin.client.write('PATCH', `/api/proxy-configurations/${id}/reset`);
    expect(reset.statusCode).toBe(200);
    const deleted = await admin.client.write(
      'DELETE',
      `/api/proxy-configurations/${id}?removeFromServer=false`,
    );
    expect(deleted.statusCode).toBe(200);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['proxy.reset', 'proxy.delete']),
    );
    expect(audit.find((a) => a.action === 'proxy.delete')!.actorUsername).toBe(admin.user.username);
  });

  it('lists the caller configurations newest first', async () => {
    const { client } = await signedInClient(t);
    const first = await createProxy(client);
    const second = await createProxy(client);
    const list = await client.request({ method: 'GET', url: '/api/user/proxy-configurations' });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
    expect(list.body).not.toContain(SSH_PASSWORD);
  });

  it('edits through PUT, stores the SSH port, records the change and validates', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const domain = uniqueDomain('edited');
    const response = await client.write('PUT', `/api/user/proxy-configurations/${id}`, {
      domain,
      targetServer: 'https://app.internal:8443',
      serverIp: '203.0.113.77',
      sshUser: 'deploy',
      sshPort: '2222',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      domain,
      sshPort: 2222,
      sshUser: 'deploy',
      serverIp: '203.0.113.77',
    });
    expect(response.body).not.toContain(SSH_PASSWORD);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    const edit = audit.find((a) => a.action === 'proxy.edit')!;
    expect(edit.changes).toEqual(
      expect.arrayContaining([
        { field: 'sshPort', before: 22, after: 2222 },
        { field: 'domain', before: expect.any(String), after: domain },
      ]),
    );
    expect(JSON.stringify(audit)).not.toContain(SSH_PASSWORD);

    const bad = await client.write('PUT', `/api/user/proxy-configurations/${id}`, {
      domain: '',
      targetServer: '',
      serverIp: '',
      sshUser: '',
      sshPort: 70000,
    });
    expect(bad.statusCode).toBe(400);
    const messages = bad.json().issues.map((i: { message: string }) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Domain is required',
        'Target server is required',
        'Server IP is required',
        'SSH user is required',
        'Port must be at most 65535',
      ]),
    );
  });

  it('refuses an edit to a domain another configuration holds (409)', async () => {
    const { client } = await signedInClient(t);
    const a = await createProxy(client);
    const b = await createProxy(client);
    const response = await client.write('PUT', `/api/user/proxy-configurations/${b.id}`, {
      domain: a.input.domain,
      targetServer: 'http://10.0.0.5:8080',
      serverIp: '203.0.113.10',
      sshUser: 'root',
    });
    expect(response.statusCode).toBe(409);
    const upperCase = await client.write('PUT', `/api/user/proxy-configurations/${b.id}`, {
      domain: a.input.domain.toUpperCase(),
      targetServer: 'http://10.0.0.5:8080',
      serverIp: '203.0.113.10',
      sshUser: 'root',
    });
    expect(upperCase.statusCode).toBe(409);
    const [stored] = await t.database.db
      .select({ domain: proxyConfigurations.domain })
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, b.id));
    expect(stored!.domain).toBe(b.input.domain);
  });

  it('keeps its own domain through an edit, in any case, while the domain stays unique', async () => {
    // From an address of its own: the file's other tests use up the register limit of the default.
    const { client } = await signedInClient(t, 'user', '192.0.2.77');
    const { id, input } = await createProxy(client);
    const edit = (domain: string) =>
      client.write('PUT', `/api/user/proxy-configurations/${id}`, {
        domain,
        targetServer: 'http://10.0.0.5:8081',
        serverIp: input.serverIp,
        sshUser: 'root',
      });
    expect((await edit(input.domain)).statusCode).toBe(200);
    const upper = await edit(input.domain.toUpperCase());
    expect(upper.statusCode).toBe(200);
    const other = await createProxy(client);
    expect((await edit(other.input.domain)).statusCode).toBe(409);
  });

  it("checks duplicates globally, naming only the caller's own, excluding the one being resumed", async () => {
    const owner = await signedInClient(t);
    const other = await signedInClient(t);
    const { id, input } = await createProxy(owner.client);
    const body = { domain: input.domain, serverIp: input.serverIp, sshUser: 'root' };
    // Another account's: a duplicate, but no id and nothing of the owner.
    const dup = await other.client.write('POST', '/api/check-duplicate-configuration', body);
    expect(dup.json()).toEqual({ isDuplicate: true, existingId: null });
    // The caller's own: its id, so the wizard can offer to open it.
    const mine = await owner.client.write('POST', '/api/check-duplicate-configuration', {
      ...body,
      domain: input.domain.toUpperCase(),
    });
    expect(mine.json()).toEqual({ isDuplicate: true, existingId: id });
    const own = await owner.client.write('POST', '/api/check-duplicate-configuration', {
      ...body,
      configurationId: id,
    });
    expect(own.json()).toEqual({ isDuplicate: false, existingId: null });
    const fresh = await other.client.write('POST', '/api/check-duplicate-configuration', {
      ...body,
      domain: uniqueDomain(),
    });
    expect(fresh.json()).toEqual({ isDuplicate: false, existingId: null });
  });

  it('resets to pending and refuses while deploying (409)', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'failed' })
      .where(eq(proxyConfigurations.id, id));
    const reset = await client.write('PATCH', `/api/proxy-configurations/${id}/reset`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().status).toBe('pending');
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'deploying' })
      .where(eq(proxyConfigurations.id, id));
    const refused = await client.write('PATCH', `/api/proxy-configurations/${id}/reset`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('deployment_running');
  });

  it('deletes without removal from the server', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    await seedServerSite(t, id);
    const deleted = await client.write(
      'DELETE',
      `/api/proxy-configurations/${id}?removeFromServer=false`,
    );
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true, removedFromServer: false });
    const got = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(got.statusCode).toBe(404);
  });

  it('answers 502 server_unreachable when removal cannot reach the server', async () => {
    const { client } = await signedInClient(t);
    // Port 1 on loopback: connection refused at once.
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    await seedServerSite(t, id);
    const response = await client.write('DELETE', `/api/proxy-configurations/${id}`);
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('server_unreachable');
    expect(response.json().message).toContain('delete the configuration from Portico only');
    expect(response.body).not.toContain(SSH_PASSWORD);
    const still = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(still.statusCode).toBe(200);
  });

  it('a reset of a live site keeps the record of what the server serves: the site, its certificate and the last successful deployment', async () => {
    // An address of its own: the file's registrations would pass the per-address limit.
    const { client } = await signedInClient(t, 'user', '192.0.2.78');
    const { id } = await createProxy(client);
    // As a completed run leaves it: HTTPS enabled with its certificate, deployed at a moment.
    await markDeployed(t, id);
    const site = await seedServerSite(t, id, {
      files: ['/etc/nginx/sites-available/proxy-x', '/etc/nginx/sites-enabled/proxy-x'],
      enabled: true,
      https: true,
      certificate: { name: 'x', expiresAt: '2031-11-21T16:00:00.000Z' },
    });
    const deployedAt = new Date('2026-11-22T16:00:00.000Z');
    await t.database.db
      .update(proxyConfigurations)
      .set({ lastDeployedAt: deployedAt })
      .where(eq(proxyConfigurations.id, id));
    const reset = await client.write('PATCH', `/api/proxy-configurations/${id}/reset`);
    expect(reset.statusCode).toBe(200);
    for (const body of [
      reset.json(),
      (await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })).json(),
    ]) {
      expect(body).toMatchObject({
        status: 'pending',
        sslConfigured: true,
        lastDeployedAt: deployedAt.toISOString(),
        changedSinceDeploy: false,
        serverSites: [site],
      });
      // What every screen's summary is made of: the record still says nginx serves HTTPS.
      expect(servingOf(body.serverSites, body.sslConfigured)).toBe('https');
    }
  });

  it('removal follows the record of what is on the server, not the status: after a failed run and a reset it still goes to the server; with nothing recorded it goes to none', async () => {
    const { client } = await signedInClient(t, 'user', '198.51.100.77');
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    // A run that failed after writing, then Reset state: pending, never deployed, files there.
    await seedServerSite(t, id, { unconfirmed: true });
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'failed' })
      .where(eq(proxyConfigurations.id, id));
    expect((await client.write('PATCH', `/api/proxy-configurations/${id}/reset`)).statusCode).toBe(
      200,
    );
    const shown = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(shown.json()).toMatchObject({ status: 'pending', lastDeployedAt: null });
    expect(shown.json().serverSites).toHaveLength(1);
    // The server is contacted (and here cannot be reached), so nothing is deleted.
    const response = await client.write('DELETE', `/api/proxy-configurations/${id}`);
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('server_unreachable');
    const still = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(still.statusCode).toBe(200);

    // With nothing recorded on a server, a failed proxy deletes without contacting any.
    const other = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'failed' })
      .where(eq(proxyConfigurations.id, other.id));
    const deleted = await client.write('DELETE', `/api/proxy-configurations/${other.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true, removedFromServer: false });
  });

  it('reports an undecryptable stored password clearly', async () => {
    const { client } = await signedInClient(t);
    const a = await createProxy(client);
    const b = await createProxy(client);
    // b's ciphertext moved into a's row: bound to b's id, it must not decrypt for a.
    const rowB = (
      await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, b.id))
    )[0]!;
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshPasswordEnc: rowB.sshPasswordEnc, status: 'completed' })
      .where(eq(proxyConfigurations.id, a.id));
    await seedServerSite(t, a.id);
    const response = await client.write('DELETE', `/api/proxy-configurations/${a.id}`);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'secret_key_unreadable' });
    expect(response.json().message).toMatch(/secret key file/);
  });
});
