import { randomUUID } from 'node:crypto';
import type { TWsMessage } from '@portico/shared/proxy/api';
import type { TDatabase } from '../../db/client';
import { listenOn } from '../../jobs/listen';

type TListener = (message: TWsMessage) => void;

export interface TLogBus {
  publish(configurationId: string, message: TWsMessage): void;
  subscribe(configurationId: string, listener: TListener): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'portico_deploy';
// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more.
const MAX_PAYLOAD = 7500;

export interface TLogBusOptions {
  database: TDatabase;
  /** Loads a log line by id when it was too large to travel inside a notification. */
  loadLog: (id: number) => Promise<TWsMessage | undefined>;
  onError: (error: unknown) => void;
}

/**
 * Fan-out of deployment messages: to this process's sockets directly, and on PostgreSQL through
 * LISTEN/NOTIFY to every other instance on the same database. PGlite has one process by design
 * (the data-dir lock), so in-process is all there is.
 */
export async function createLogBus(options: TLogBusOptions): Promise<TLogBus> {
  const listeners = new Map<string, Set<TListener>>();
  const origin = randomUUID();

  function deliver(configurationId: string, message: TWsMessage) {
    for (const listener of listeners.get(configurationId) ?? []) listener(message);
  }

  const pool = options.database.kind === 'postgres' ? options.database.pool! : undefined;
  // Sent one after another so other instances receive lines in the order they were written.
  let sending: Promise<unknown> = Promise.resolve();

  async function receive(payload: string) {
    const parsed = JSON.parse(payload) as {
      o: string;
      c: string;
      m?: TWsMessage;
      logId?: number;
    };
    if (parsed.o === origin || !listeners.has(parsed.c)) return;
    const message = parsed.m ?? (parsed.logId ? await options.loadLog(parsed.logId) : undefined);
    if (message) deliver(parsed.c, message);
  }

  const listening = pool
    ? await listenOn(options.database, CHANNEL, {
        onPayload: (payload) => void receive(payload).catch(options.onError),
        onError: options.onError,
      })
    : undefined;

  return {
    publish(configurationId, message) {
      deliver(configurationId, message);
      if (!pool) return;
      let payload = JSON.stringify({ o: origin, c: configurationId, m: message });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD && message.type === 'deployment_progress') {
        payload = JSON.stringify({ o: origin, c: configurationId, logId: message.data.id });
      }
      sending = sending
        .then(() => pool.query('select pg_notify($1, $2)', [CHANNEL, payload]))
        .catch(options.onError);
    },

    subscribe(configurationId, listener) {
      let set = listeners.get(configurationId);
      if (!set) {
        set = new Set();
        listeners.set(configurationId, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(configurationId);
      };
    },

    async close() {
      await sending;
      await listening?.close();
    },
  };
}
