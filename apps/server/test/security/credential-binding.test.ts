// A stored SSH password is bound to the server, port and user it was entered for. Neither an
// admin nor the owner can send it anywhere else: an edit of the address, the port or the user
// clears it (and says so in the audit trail), a redeploy then asks for it again, the SSH test
// and the wizard's save do not carry it over, and the deploy start, the deploy job and a removal
// each refuse a row whose binding does not match where it points (a row changed behind the API's
// back, or a site recorded on a server the password was not entered for). Every configuration here is pointed at an SSH server that records every login attempt:
// it must never see a password. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deploymentLogs, proxyConfigurations } from '../../src/db/schema';
import { misbehavingPeer, type TPeer } from '../peers/test-peers';
import { startSshRecorder, type TSshRecorder } from '../peers/test-recorder';
import {
  createProxy,
  SSH_PASSWORD,
  seedServerSite,
  signedInClient,
  waitForStatus,
} from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';

let recorder: TSshRecorder;
let silent: TPeer;

beforeAll(async () => {
  recorder = await startSshRecorder();
  silent = await misbehavingPeer('banner-then-silence');
});
afterAll(async () => {
  await recorder?.close();
  await silent?.close();
});

/** The recorder saw nothing at all: no connection, so no password either. */
function expectNothingReachedTheRecorder() {
  expect(recorder.attempts()).toEqual([]);
  expect(recorder.connections()).toBe(0);
}

describe.each(testDatabaseKinds())('stored SSH passwords stay with their server on %s', (kind) => {
  let t: TTestApp;
  let owner: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { workers: 1 } });
    ({ client: owner } = await signedInClient(t));
    ({ client: admin } = await signedInClient(t, 'admin'));
  });
  afterAll(async () => t?.close());
  afterEach(() => expectNothingReachedTheRecorder());

  const row = async (id: string) =>
    (
      await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
    )[0]!;
  const view = async (id: string) =>
    (await owner.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })).json();

  const editOf = (input: Record<string, unknown>, change: Record<string, unknown>) => ({
    domain: input.domain,
    targetServer: input.targetServer,
    serverIp: input.serverIp,
    sshUser: input.sshUser,
    sshPort: 22,
    ...change,
  });

  /** A redeploy (and a deploy) by `who` is refused, asking for the password, in es and en. */
  async function expectDeployAsksForPassword(who: TestClient, id: string) {
    for (const [lang, url] of [
      ['es', `/api/proxy-configurations/${id}/redeploy`],
      ['en', `/api/deploy/${id}`],
    ] as [TLanguage, string][]) {
      const response = await who.write('POST', url, undefined, { 'accept-language': lang });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'deploy_needs_password',
        message: translate(lang, 'errors.deployNeedsPassword'),
      });
    }
  }

  it('only the owner can enter a cleared password again: an admin’s edit or save carrying one stores nothing', async () => {
    const { id, input } = await createProxy(owner);
    const moved = editOf(input, { sshUser: 'deploy' });
    const cleared = await admin.write('PUT', `/api/admin/proxy-configurations/${id}`, moved);
    expect(cleared.json().hasSshPassword).toBe(false);
    // The admin's edit takes no password: one sent along is dropped.
    const edited = await admin.write('PUT', `/api/admin/proxy-configurations/${id}`, {
      ...moved,
      sshPassword: 'typed-by-the-admin-1',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().hasSshPassword).toBe(false);
    // Saving with the owner's configuration id updates only a configuration of the caller's.
    await admin.write('POST', '/api/proxy-configurations', {
      ...input,
      sshUser: 'deploy',
      configurationId: id,
      sshPassword: 'typed-by-the-admin-2',
    });
    expect(await row(id)).toMatchObject({ sshPasswordEnc: null, sshPasswordTarget: null });
    await expectDeployAsksForPassword(admin, id);
    // The owner resumes and enters it: it is stored for the new target.
    const resumed = await owner.write('POST', '/api/proxy-configurations', {
      ...input,
      sshUser: 'deploy',
      configurationId: id,
      sshPassword: SSH_PASSWORD,
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect((await view(id)).hasSshPassword).toBe(true);
    expect((await row(id)).sshPasswordTarget).toBe(`deploy@${input.serverIp}:22`);
  });

  const redirects: [string, (recorderPort: number) => Record<string, unknown>][] = [
    ['the address and port', (port) => ({ serverIp: '127.0.0.1', sshPort: port })],
    ['the port', (port) => ({ sshPort: port })],
  ];
  for (const [actor, url] of [
    ['an admin', '/api/admin/proxy-configurations'],
    ['the owner', '/api/user/proxy-configurations'],
  ] as const) {
    for (const [what, change] of redirects) {
      it(`${actor} pointing ${what} at another server clears the password; a redeploy asks for it`, async () => {
        // On 127.0.0.1 from the start when only the port moves, so the port alone is the change.
        const start = what === 'the port' ? { serverIp: '127.0.0.1' } : {};
        const { id, input } = await createProxy(owner, start);
        const who = actor === 'an admin' ? admin : owner;
        const edited = await who.write('PUT', `${url}/${id}`, editOf(input, change(recorder.port)));
        expect(edited.statusCode, edited.body).toBe(200);
        expect(edited.json().hasSshPassword).toBe(false);
        expect(await row(id)).toMatchObject({ sshPasswordEnc: null, sshPasswordTarget: null });
        await expectDeployAsksForPassword(who, id);
      });
    }

    it(`${actor} changing only the SSH user clears the password too`, async () => {
      const { id, input } = await createProxy(owner, {
        serverIp: '127.0.0.1',
        sshPort: recorder.port,
      });
      const who = actor === 'an admin' ? admin : owner;
      const edited = await who.write('PUT', `${url}/${id}`, {
        ...editOf(input, { sshPort: recorder.port }),
        sshUser: 'deploy',
      });
      expect(edited.json().hasSshPassword).toBe(false);
      await expectDeployAsksForPassword(who, id);
    });

    it(`${actor} changing only the domain and target keeps the password (control)`, async () => {
      const { id, input } = await createProxy(owner);
      const who = actor === 'an admin' ? admin : owner;
      const edited = await who.write('PUT', `${url}/${id}`, {
        ...editOf(input, {}),
        domain: `kept-${input.domain}`,
        targetServer: 'http://10.0.0.6:8080',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().hasSshPassword).toBe(true);
    });
  }

  it('the wizard resuming with another server and no password does not carry the password over', async () => {
    const { id, input } = await createProxy(owner);
    const moved = { ...input, configurationId: id, serverIp: '127.0.0.1', sshPort: recorder.port };
    const { sshPassword: _none, ...withoutPassword } = moved;
    const saved = await owner.write('POST', '/api/proxy-configurations', withoutPassword);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await view(id)).hasSshPassword).toBe(false);
    await expectDeployAsksForPassword(owner, id);
    // The SSH test does not use it either: a password is asked for.
    const test = await owner.write('POST', '/api/test-ssh', {
      serverIp: '127.0.0.1',
      username: input.sshUser,
      port: recorder.port,
      configurationId: id,
    });
    expect(test.statusCode).toBe(400);
    expect(test.json().code).toBe('password_required');
  });

  it('a password entered in the wizard for the new server is bound to it', async () => {
    const { id, input } = await createProxy(owner);
    const saved = await owner.write('POST', '/api/proxy-configurations', {
      ...input,
      configurationId: id,
      serverIp: '198.51.100.7',
      sshPassword: 'Another-pw-2',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await view(id)).toMatchObject({ hasSshPassword: true, serverIp: '198.51.100.7' });
    expect((await row(id)).sshPasswordTarget).toBe('root@198.51.100.7:22');
  });

  it('a row moved behind the API’s back: the deploy start refuses it', async () => {
    const { id } = await createProxy(owner);
    await t.database.db
      .update(proxyConfigurations)
      .set({ serverIp: '127.0.0.1', sshPort: recorder.port })
      .where(eq(proxyConfigurations.id, id));
    expect((await view(id)).hasSshPassword).toBe(false);
    await expectDeployAsksForPassword(admin, id);
  });

  it('a row moved after its run was queued: the job refuses to send the password', async () => {
    // The one worker is busy with a run that waits on a silent server, so the next run waits in
    // the queue while its row is moved.
    const busy = await createProxy(owner, { serverIp: '127.0.0.1', sshPort: silent.port });
    expect((await owner.write('POST', `/api/deploy/${busy.id}`)).statusCode).toBe(202);
    await waitForStatus(owner, busy.id, (s) => s === 'deploying');
    const { id } = await createProxy(owner, { serverIp: '127.0.0.1', sshPort: silent.port });
    const queued = await owner.write('POST', `/api/deploy/${id}`, undefined, {
      'accept-language': 'es',
    });
    expect(queued.statusCode).toBe(202);
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshPort: recorder.port })
      .where(eq(proxyConfigurations.id, id));
    await waitForStatus(owner, id, (s) => s === 'failed');
    const lines = await t.database.db
      .select()
      .from(deploymentLogs)
      .where(eq(deploymentLogs.configurationId, id));
    expect(lines.map((l) => l.message)).toContain(
      translate('es', 'deployLog.job.passwordForOtherServer', {
        target: `root@127.0.0.1:${recorder.port}`,
      }),
    );
    await waitForStatus(owner, busy.id, (s) => s !== 'deploying');
  }, 90_000);

  it('a removal goes to where the record says the site is only with a password entered for it', async () => {
    const { id } = await createProxy(owner);
    // The record says a site was written on the recorder, where the password was not entered.
    await seedServerSite(t, id, { serverIp: '127.0.0.1', sshPort: recorder.port });
    const target = `root@127.0.0.1:${recorder.port}`;
    for (const lang of ['es', 'en'] as const) {
      const removal = await admin.write(
        'DELETE',
        `/api/proxy-configurations/${id}?removeFromServer=true`,
        undefined,
        { 'accept-language': lang },
      );
      expect(removal.statusCode, removal.body).toBe(400);
      expect(removal.json()).toMatchObject({
        code: 'remove_needs_password',
        message: translate(lang, 'errors.removeNeedsPassword', { target }),
      });
    }
    // Nothing changed: the configuration, its password and its record are all still there.
    expect(await row(id)).toMatchObject({ sshPasswordEnc: expect.any(String) });
    expect((await row(id)).serverSites).toHaveLength(1);
    // Deleting from Portico only is still possible.
    const deleted = await admin.write(
      'DELETE',
      `/api/proxy-configurations/${id}?removeFromServer=false`,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
  });
  it('a removal of two recorded sites, one on a server without its password, contacts neither', async () => {
    // The password is entered for the recorder, where one site is; the other site is elsewhere.
    const { id } = await createProxy(owner, { serverIp: '127.0.0.1', sshPort: recorder.port });
    const here = await seedServerSite(t, id);
    const elsewhere = { ...here, serverIp: '198.51.100.9', sshPort: 22 };
    await t.database.db
      .update(proxyConfigurations)
      .set({ serverSites: [here, elsewhere] })
      .where(eq(proxyConfigurations.id, id));
    const removal = await owner.write(
      'DELETE',
      `/api/proxy-configurations/${id}?removeFromServer=true`,
    );
    expect(removal.statusCode, removal.body).toBe(400);
    expect(removal.json()).toMatchObject({
      code: 'remove_needs_password',
      message: translate('en', 'errors.removeNeedsPassword', { target: 'root@198.51.100.9:22' }),
    });
    expect((await row(id)).serverSites).toHaveLength(2);
  });
});

// Last, so the tests above start from a recorder that saw nothing: it does see what reaches it.
describe('control: the recorder', () => {
  it('records a password entered for it and sent to it by the owner’s own deploy', async () => {
    const t = await createTestApp('pglite', { deploy: { workers: 1 } });
    try {
      const { client } = await signedInClient(t);
      const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: recorder.port });
      expect((await client.write('POST', `/api/deploy/${id}`)).statusCode).toBe(202);
      await waitForStatus(client, id, (s) => s === 'failed');
      expect(recorder.attempts()).toContainEqual({
        method: 'password',
        username: 'root',
        password: SSH_PASSWORD,
      });
    } finally {
      await t.close();
    }
  });
});
