import { once } from 'node:events';
import http from 'node:http';
import type { Socket } from 'node:net';

export interface TReceivedPost {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: Record<string, unknown> | undefined;
}

export interface THttpSink {
  port: number;
  url(path?: string): string;
  requests: TReceivedPost[];
  waitFor(count: number, timeoutMs?: number): Promise<TReceivedPost[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver for tests on 127.0.0.1: records every request, and answers as `answer`
 * says for its path (default 204). An answer of 'hang' never answers.
 */
export async function startHttpSink(
  answer: (
    path: string,
  ) => { status: number; headers?: Record<string, string>; body?: string } | 'hang' = () => ({
    status: 204,
  }),
): Promise<THttpSink> {
  const requests: TReceivedPost[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      const path = req.url ?? '/';
      requests.push({ path, headers: req.headers, body, json });
      const a = answer(path);
      if (a === 'hang') return;
      res.writeHead(a.status, a.headers);
      res.end(a.body ?? '');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    requests,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`HTTP sink: ${requests.length} of ${count} requests arrived`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return requests;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
