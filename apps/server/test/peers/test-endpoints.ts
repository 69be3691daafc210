// Test support: two real endpoints on 127.0.0.1 for the probe's tests, one where something
// listens (online) and one port nothing listens on (offline).
import { createServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './test-sshd';

export interface TTestEndpoints {
  openPort: number;
  closedPort: number;
}

/** Opens the listener before the file's tests and closes it after; read the ports in tests. */
export function useTestEndpoints(): TTestEndpoints {
  const ports: TTestEndpoints = { openPort: 0, closedPort: 0 };
  const listener = createServer((socket) => socket.end());
  beforeAll(async () => {
    ports.openPort = await new Promise<number>((resolve) => {
      listener.listen(0, '127.0.0.1', () => resolve((listener.address() as { port: number }).port));
    });
    ports.closedPort = await freePort();
  });
  afterAll(() => {
    listener.close();
  });
  return ports;
}
