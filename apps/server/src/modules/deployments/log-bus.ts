import type { TWsMessage } from '@portico/shared/proxy/api';
import type { TDatabase } from '../../db/client';
import { openChannel, type TChannelMessage } from '../../jobs/channel';

type TListener = (message: TWsMessage) => void;

export interface TLogBus {
  publish(configurationId: string, message: TWsMessage): void;
  subscribe(configurationId: string, listener: TListener): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'portico_deploy';

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

  function deliver(configurationId: string, message: TWsMessage) {
    for (const listener of listeners.get(configurationId) ?? []) listener(message);
  }

  // Another instance's message: a configuration's id (`c`), and its message (`m`) or, when that
  // was too large for a notification, the id of the log line to read (`logId`).
  async function receive({ c, m, logId }: TChannelMessage) {
    if (typeof c !== 'string' || !listeners.has(c)) return;
    const message =
      (m as TWsMessage | undefined) ??
      (typeof logId === 'number' ? await options.loadLog(logId) : undefined);
    if (message) deliver(c, message);
  }

  // Delivered one after another, as they arrived: a small message must not overtake a large
  // line still being read.
  let receiving: Promise<unknown> = Promise.resolve();
  const channel =
    options.database.kind === 'postgres'
      ? await openChannel(options.database, CHANNEL, {
          onMessage(message) {
            receiving = receiving.then(() => receive(message)).catch(options.onError);
          },
          onError: options.onError,
        })
      : undefined;
  // Sent one after another so other instances receive lines in the order they were written.
  let sending: Promise<unknown> = Promise.resolve();

  return {
    publish(configurationId, message) {
      deliver(configurationId, message);
      if (!channel) return;
      // A line too large for a notification goes as its id, read from the database there.
      const byId =
        message.type === 'deployment_progress'
          ? () => ({ c: configurationId, logId: message.data.id })
          : undefined;
      sending = sending
        .then(() => channel.say({ c: configurationId, m: message }, byId))
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
      await channel?.close();
      await receiving;
    },
  };
}
