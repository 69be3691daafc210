import { dedicatedClient, type TDatabase, type TPgClient } from '../db/client';

export interface TListenHandlers {
  onPayload(payload: string): void;
  onError(error: unknown): void;
  /** Called after a lost connection listens again: what was said meanwhile never arrived. */
  onRelisten?(): void;
}

/** How long a lost LISTEN connection waits before it connects again. */
const RELISTEN_MS = 1000;
/**
 * How long connecting and asking to LISTEN may take before the try is given up (and, once
 * started, tried again): a database that accepts the connection and never answers must not
 * leave the line waiting forever. TCP keepalive, from this long idle on, finds a peer gone
 * without a word.
 */
export const LISTEN_DEADLINE_MS = 10_000;

/**
 * LISTEN on `channel` (PostgreSQL only) over a connection of its own that outlives its losses:
 * the first connection is awaited (a database that refuses it fails the start), and one lost
 * later connects again a second after, as many times as it takes, until closed.
 */
export async function listenOn(
  database: TDatabase,
  channel: string,
  handlers: TListenHandlers,
  deadlineMs = LISTEN_DEADLINE_MS,
): Promise<{ close(): Promise<void> }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  let client: TPgClient | undefined;
  let closed = false;

  async function listen(again: boolean): Promise<void> {
    if (closed) return;
    const c = dedicatedClient(database, {
      connectionTimeoutMillis: deadlineMs,
      query_timeout: deadlineMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: deadlineMs,
    });
    // Only the connection listening now is replaced; a failed connect is handled by the caller.
    c.on('error', (error) => {
      if (client !== c) return;
      handlers.onError(error);
      client = undefined;
      c.end().catch(() => {});
      relistenLater();
    });
    c.on('end', () => {
      if (client !== c) return;
      client = undefined;
      relistenLater();
    });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload) handlers.onPayload(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (error) {
      c.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    if (again) handlers.onRelisten?.();
  }

  let waiting = false;
  function relistenLater() {
    if (closed || waiting) return;
    waiting = true;
    setTimeout(() => {
      waiting = false;
      listen(true).catch((error) => {
        handlers.onError(error);
        relistenLater();
      });
    }, RELISTEN_MS).unref();
  }

  await listen(false);
  return {
    async close() {
      closed = true;
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
