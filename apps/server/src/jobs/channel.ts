import { randomUUID } from 'node:crypto';
import type { TDatabase } from '../db/client';
import { listenOn } from './listen';

/** A message as it arrives: a JSON object, each field still to be checked by its reader. */
export type TChannelMessage = Record<string, unknown>;

// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more.
const MAX_PAYLOAD_BYTES = 7900;

export interface TChannel {
  /**
   * Tells every other instance on the database (never this one); `shorter` is said instead when
   * `message` is too large for a notification. Resolves once PostgreSQL took it; a caller that
   * needs its messages in order waits for each before the next.
   */
  say(message: TChannelMessage, shorter?: () => TChannelMessage): Promise<void>;
  close(): Promise<void>;
}

export interface TChannelHandlers {
  onMessage(message: TChannelMessage): void;
  onError(error: unknown): void;
  /** The channel listens again after a loss: what was said meanwhile never arrived. */
  onRelisten?(): void;
}

/**
 * A channel between the Portico instances on one PostgreSQL database (LISTEN/NOTIFY): JSON
 * objects, each carrying its sender's id (`o`), so an instance never hears itself. Anything
 * else on the channel (not JSON, not an object) is dropped unseen: whoever can reach the
 * database can NOTIFY.
 */
export async function openChannel(
  database: TDatabase,
  name: string,
  handlers: TChannelHandlers,
): Promise<TChannel> {
  const pool = database.pool!;
  const origin = randomUUID();
  const listening = await listenOn(database, name, {
    onPayload(payload) {
      let said: unknown;
      try {
        said = JSON.parse(payload);
      } catch {
        return;
      }
      if (typeof said !== 'object' || said === null || Array.isArray(said)) return;
      if ((said as TChannelMessage).o === origin) return;
      handlers.onMessage(said as TChannelMessage);
    },
    onError: handlers.onError,
    onRelisten: handlers.onRelisten,
  });
  return {
    async say(message, shorter) {
      let payload = JSON.stringify({ o: origin, ...message });
      if (shorter && Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        payload = JSON.stringify({ o: origin, ...shorter() });
      }
      await pool.query('select pg_notify($1, $2)', [name, payload]);
    },
    close: () => listening.close(),
  };
}
