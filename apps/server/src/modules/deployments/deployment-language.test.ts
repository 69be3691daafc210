// Runs and removals speak the requester's language: the run's row keeps it for the worker.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments, proxyConfigurations } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test-support/test-app';
import type { TestClient } from '../../test-support/test-client';
import { testDatabaseKinds } from '../../test-support/test-database';
import { createProxy, signedInClient } from '../proxies/proxies-test-helpers';

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
    const logs = await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` });
    const messages = (logs.json() as { message: string }[]).map((l) => l.message);
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

  it('a removal asked for in Spanish explains the unreachable server in Spanish', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'completed', nginxConfigPath: '/etc/nginx/x' })
      .where(eq(proxyConfigurations.id, id));
    const response = await client.write('DELETE', `/api/proxy-configurations/${id}`, undefined, {
      'accept-language': 'es',
    });
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('server_unreachable');
    expect(response.json().message).toContain('No se pudo contactar con el servidor');
    expect(response.json().message).toContain('Comprueba la dirección del servidor');
  });
});
