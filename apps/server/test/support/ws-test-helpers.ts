// A WebSocket client for tests of /ws: collects every frame and how the socket ended.
import type { TWsMessage } from '@portico/shared/proxy/api';
import WebSocket from 'ws';

export interface TWatch {
  messages: TWsMessage[];
  /** Resolves with the close code and reason (or the HTTP status when the upgrade was refused). */
  ended: Promise<{ code: number; reason?: string; httpStatus?: number }>;
  opened: Promise<boolean>;
  waitFor(check: (messages: TWsMessage[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function watch(
  baseUrl: string,
  configId: string,
  headers: Record<string, string> = {},
  /** More of the query string, e.g. `&lang=en`. */
  query = '',
): TWatch {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws?configId=${configId}${query}`;
  const socket = new WebSocket(url, { headers });
  const messages: TWsMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const w of waiters) w();
  });
  const opened = new Promise<boolean>((resolve) => {
    socket.on('open', () => resolve(true));
    socket.on('unexpected-response', () => resolve(false));
    socket.on('error', () => resolve(false));
  });
  const ended = new Promise<{ code: number; reason?: string; httpStatus?: number }>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.on('unexpected-response', (_req, res) => {
      resolve({ code: 0, httpStatus: res.statusCode });
      res.resume();
      socket.terminate();
    });
  });
  return {
    messages,
    ended,
    opened,
    waitFor(check, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const test = () => {
          if (!check(messages)) return;
          waiters.delete(test);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(
            new Error(`socket condition not met; got ${JSON.stringify(messages).slice(0, 2000)}`),
          );
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
    close: () => socket.close(),
  };
}

export function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

export const progressLines = (messages: TWsMessage[]) =>
  messages.flatMap((m) => (m.type === 'deployment_progress' ? [m.data] : []));
export const statuses = (messages: TWsMessage[]) =>
  messages.flatMap((m) => (m.type === 'deployment_status' ? [m.data.status] : []));
