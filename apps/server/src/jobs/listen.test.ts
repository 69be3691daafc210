// A LISTEN line's connection against a database that accepts it and then never answers (a TCP
// server that stays silent): the try ends at its deadline, and the connection is closed.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../db/client';
import { listenOn } from './listen';

describe('a LISTEN line whose database never answers', () => {
  let server: Server;
  let database: TDatabase;
  const sockets: Socket[] = [];
  let closed = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.push(socket);
      socket.on('close', () => closed++);
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    // A pool connects only when asked: this one is only the line's settings.
    database = await openDatabase({ databaseUrl: `postgres://nobody@127.0.0.1:${port}/none` });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await database.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives up at its deadline and closes the connection', async () => {
    const errors: unknown[] = [];
    const started = Date.now();
    await expect(
      listenOn(
        database,
        'portico_silent',
        { onPayload: () => {}, onError: (e) => errors.push(e) },
        300,
      ),
    ).rejects.toThrow(/timeout/i);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sockets).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(1);
    // A first connection that fails is the caller's to report; nothing is tried again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(sockets).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
