import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSsh } from './connect';
import { SshError } from './errors';

// A server that accepts TCP and never speaks: without the signal the connect would wait for its
// own timeout (set to ten minutes here, so only the abort can end it).
async function silentServer() {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    sockets,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

describe('connectSsh with a signal', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => close?.());

  it('gives up a connection still being set up when the signal aborts', async () => {
    const silent = await silentServer();
    close = silent.close;
    const controller = new AbortController();
    const connecting = connectSsh({
      host: '127.0.0.1',
      port: silent.port,
      username: 'root',
      password: 'unused',
      timeoutMs: 600_000,
      signal: controller.signal,
    });
    while (silent.sockets.size === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const error = await connecting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshError);
    expect((error as SshError).message).toBe(
      `The connection to 127.0.0.1:${silent.port} was given up.`,
    );
  });

  it('does not even open a connection when the signal has already aborted', async () => {
    const silent = await silentServer();
    close = silent.close;
    const connecting = connectSsh({
      host: '127.0.0.1',
      port: silent.port,
      username: 'root',
      password: 'unused',
      signal: AbortSignal.abort(),
    });
    await expect(connecting).rejects.toBeInstanceOf(SshError);
    expect(silent.sockets.size).toBe(0);
  });
});
