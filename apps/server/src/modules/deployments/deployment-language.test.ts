// Runs and removals speak the requester's language: the run's row keeps it for the worker.

import { renderText } from '@portico/shared/i18n/text';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  seedServerSite,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import {
  cookieHeader,
  progressLines,
  statuses,
  watch,
} from '../../../test/support/ws-test-helpers';
import { deploymentLogs, deployments } from '../../db/schema';
import { createDeploymentsRepository } from './deployments.repository';

async function settled(client: TestClient, id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    if (res.json().status !== 'deploying') return;
    if (Date.now() > deadline) throw new Error('still deploying');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each(testDatabaseKinds())('deployment language on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function runOf(deploymentId: string) {
    const rows = await t.database.db
      .select()
      .from(deployments)
      .where(eq(deployments.id, deploymentId));
    return rows[0]!;
  }

  async function logsIn(client: TestClient, id: string, language: string) {
    const logs = await client.request({
      method: 'GET',
      url: `/api/deployment-logs/${id}`,
      headers: { 'accept-language': language },
    });
    return logs.json() as { message: string; text: unknown; deploymentId: string | null }[];
  }

  it('a deploy asked for in Spanish is stored as es and logged in Spanish; redeploy in English', async () => {
    const { client } = await signedInClient(t);
    // Port 1 on loopback refuses at once: the engine fails at its connect step.
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const es = await client.write('POST', `/api/deploy/${id}`, undefined, {
      'accept-language': 'es-ES,es;q=0.9',
    });
    expect(es.statusCode).toBe(202);
    await settled(client, id);
    const first = await runOf(es.json().deploymentId);
    expect(first.language).toBe('es');
    expect(first.errorMessage).toContain('Comprueba la dirección del servidor, el puerto SSH');
    const messages = (await logsIn(client, id, 'es')).map((l) => l.message);
    expect(messages[0]).toMatch(/^Desplegando \S+ -> http:\/\/10\.0\.0\.5:8080 en 127\.0\.0\.1\.$/);

    const en = await client.write('POST', `/api/proxy-configurations/${id}/redeploy`, undefined, {
      'accept-language': 'en-US,en;q=0.8',
    });
    expect(en.statusCode).toBe(202);
    await settled(client, id);
    const second = await runOf(en.json().deploymentId);
    expect(second.language).toBe('en');
    expect(second.errorMessage).toContain('Check the server address, the SSH port');
  });

  it('a run started in Spanish reads in English for an English reader: our lines translated, tool output verbatim, older lines as stored', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const started = await client.write('POST', `/api/deploy/${id}`, undefined, {
      'accept-language': 'es',
    });
    const deploymentId = started.json().deploymentId as string;
    await settled(client, id);
    // A tool's own line as the job stores what the engine streams (verbatim: its words are its
    // text), and a line stored before lines had texts (message only, in Spanish), in one run.
    const repository = createDeploymentsRepository(t.database.db);
    const tool = 'certbot: Saving debug log to /var/log/letsencrypt/letsencrypt.log';
    await repository.addLog({
      configurationId: id,
      deploymentId,
      level: 'info',
      message: tool,
      text: null,
    });
    await repository.addLog({
      configurationId: id,
      deploymentId,
      level: 'info',
      message: 'Línea antigua sin texto.',
    });

    const stored = (
      await t.database.db
        .select()
        .from(deploymentLogs)
        .where(eq(deploymentLogs.configurationId, id))
    ).map((r) => r.message);
    expect(stored[0]).toMatch(/^Desplegando /);

    const en = await logsIn(client, id, 'en-GB,en;q=0.9');
    expect(en[0]!.message).toMatch(
      /^Deploying \S+ -> http:\/\/10\.0\.0\.5:8080 on 127\.0\.0\.1\.$/,
    );
    const failure = en.find((l) => /Check the server address, the SSH port/.test(l.message));
    expect(failure).toBeDefined();
    expect(en.map((l) => l.message)).toContain(tool);
    expect(en.at(-1)!.message).toBe('Línea antigua sin texto.');
    expect(en.at(-1)!.text).toBeNull();
    const es = await logsIn(client, id, 'es');
    expect(es[0]!.message).toMatch(/^Desplegando /);
    expect(es.map((l) => l.message)).toContain(tool);
    // The same text in both answers: the screen renders it in its own language.
    expect(es[0]!.text).toEqual(en[0]!.text);

    // The failure beside the configuration, in the reader's language too.
    const read = async (language: string) =>
      (
        await client.request({
          method: 'GET',
          url: `/api/proxy-configurations/${id}`,
          headers: { 'accept-language': language },
        })
      ).json().lastFailure;
    expect(await read('en')).toMatchObject({ deploymentId, code: 'tcp_connect', step: 'connect' });
    expect((await read('en')).message).toContain('Check the server address');
    expect((await read('es')).message).toContain('Comprueba la dirección del servidor');
    const run = await runOf(deploymentId);
    expect(renderText('en', run.errorText!)).toContain('Check the server address');

    // Each socket reads the run in its viewer's language.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { cookie: cookieHeader(client.cookies) };
    const english = watch(base, id, headers, '&lang=en');
    const spanish = watch(base, id, { ...headers, 'accept-language': 'es' });
    for (const w of [english, spanish]) await w.waitFor((m) => statuses(m).length > 0);
    expect(progressLines(english.messages)[0]!.message).toMatch(/^Deploying /);
    expect(progressLines(spanish.messages)[0]!.message).toMatch(/^Desplegando /);
    expect(progressLines(english.messages).map((l) => l.message)).toContain(tool);
    english.close();
    spanish.close();
  });

  it('a removal asked for in Spanish explains the unreachable server in Spanish', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    await seedServerSite(t, id);
    const response = await client.write('DELETE', `/api/proxy-configurations/${id}`, undefined, {
      'accept-language': 'es',
    });
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('server_unreachable');
    expect(response.json().message).toContain('No se pudo contactar con el servidor');
    expect(response.json().message).toContain('Comprueba la dirección del servidor');
  });
});
