import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';

export interface TTcpFarSide {
  port: number;
  close(): Promise<void>;
}

/**
 * A listener on 127.0.0.1 that is not an HTTP server, for tests of what a caller says about
 * it: `hang-up` closes the connection once the request arrives, `garbage` answers a line that
 * is not HTTP (an SSH banner) and closes, `silent` reads and never answers.
 */
export async function startTcpFarSide(
  behaviour: 'hang-up' | 'garbage' | 'silent',
): Promise<TTcpFarSide> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => {
      if (behaviour === 'hang-up') socket.destroy();
      else if (behaviour === 'garbage')
        socket.end('SSH-2.0-OpenSSH_9.6 internal-secret-banner\r\n');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port on 127.0.0.1 nothing listens on: one just opened and closed again. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
