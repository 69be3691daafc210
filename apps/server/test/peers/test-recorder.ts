// Test support: an SSH server on 127.0.0.1 (ssh2's own) that lets nobody in and writes down
// every connection and every login attempt with what it carried, a password included. A test
// points a configuration at it to prove that no stored password ever reaches it.
import { once } from 'node:events';
import { Server } from 'ssh2';
import { generateEd25519OpenSsh } from '../../src/deploy/ssh/ed25519-openssh';

export interface TLoginAttempt {
  method: string;
  username: string;
  password?: string;
}

export interface TSshRecorder {
  host: string;
  port: number;
  connections(): number;
  attempts(): TLoginAttempt[];
  close(): Promise<void>;
}

export async function startSshRecorder(): Promise<TSshRecorder> {
  const hostKey = generateEd25519OpenSsh('').privateKey;
  let connections = 0;
  const attempts: TLoginAttempt[] = [];
  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    connections += 1;
    client.on('error', () => {});
    client.on('authentication', (ctx) => {
      attempts.push({
        method: ctx.method,
        username: ctx.username,
        ...(ctx.method === 'password' ? { password: ctx.password } : {}),
      });
      ctx.reject(['password', 'keyboard-interactive']);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    attempts: () => [...attempts],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
