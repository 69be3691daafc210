// Test support: SSH peers that misbehave on purpose, each a TCP listener on 127.0.0.1. Every way
// a server can end or stall a connection before the login finishes, for the tests that prove
// each SSH operation still ends (connection-ends.sshd.test.ts, the test-ssh and deploy API tests).
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export type TPeerBehaviour =
  /** Accepts the connection and closes it before saying anything. */
  | 'close-at-once'
  /** Sends an SSH banner, then closes. */
  | 'banner-then-close'
  /** Sends an SSH banner, then never sends another byte (the TCP connection stays up). */
  | 'banner-then-silence';

export interface TPeer {
  host: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

const BANNER = 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n';

async function listen(onSocket: (socket: Socket) => void): Promise<TPeer> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function misbehavingPeer(behaviour: TPeerBehaviour): Promise<TPeer> {
  return listen((socket) => {
    if (behaviour === 'close-at-once') {
      socket.destroy();
      return;
    }
    socket.write(BANNER);
    if (behaviour === 'banner-then-close') socket.end();
  });
}

/**
 * A relay to a real SSH server that passes the server's banner and the start of its key exchange,
 * then stops in the middle of the handshake: it goes silent (both connections stay up) or closes.
 */
export function cutRelay(
  target: { host: string; port: number },
  then: 'silence' | 'close',
): Promise<TPeer> {
  return listen((client) => {
    const server = connect(target.port, target.host);
    server.on('error', () => client.destroy());
    client.on('close', () => server.destroy());
    client.on('data', (chunk) => server.write(chunk));
    let seen = '';
    let cut = false;
    server.on('data', (chunk: Buffer) => {
      if (cut) return;
      client.write(chunk);
      seen += chunk.toString('latin1');
      const bannerEnd = seen.indexOf('\n');
      // Once anything past the banner (the server's key exchange) went through, stop.
      if (bannerEnd !== -1 && seen.length > bannerEnd + 1) {
        cut = true;
        if (then === 'close') {
          client.destroy();
          server.destroy();
        }
      }
    });
  });
}
