// Test support: an SSH server (ssh2's own) that logs anyone in and then misbehaves at the one
// moment a real sshd cannot be made to: after it confirmed a session channel and before it
// answered the exec request on it. The tests that prove a command's failure is named for what
// happened use it (exec-ends.test.ts).
import { once } from 'node:events';
import { type Connection, Server } from 'ssh2';
import { generateEd25519OpenSsh } from '../../src/deploy/ssh/ed25519-openssh';

export type TExecBehaviour =
  /** The connection ends while the exec request is unanswered. */
  | 'drop'
  /** The exec request is refused (SSH_MSG_CHANNEL_FAILURE); the connection stays up. */
  | 'refuse';

export interface TSshServer {
  port: number;
  /** Exec requests received so far. */
  execs(): number;
  close(): Promise<void>;
}

export async function sshServerThatOnExec(behaviour: TExecBehaviour): Promise<TSshServer> {
  const hostKey = generateEd25519OpenSsh('').privateKey;
  const connections = new Set<Connection>();
  let execs = 0;
  const server = new Server({ hostKeys: [hostKey] }, (connection) => {
    connections.add(connection);
    connection.on('error', () => {});
    connection.on('close', () => connections.delete(connection));
    connection.on('authentication', (context) => context.accept());
    connection.on('session', (acceptSession) => {
      acceptSession().on('exec', (_accept, reject) => {
        execs += 1;
        if (behaviour === 'refuse') reject();
        else connection.end();
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    execs: () => execs,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of connections) c.end();
        server.close(() => resolve());
      }),
  };
}
