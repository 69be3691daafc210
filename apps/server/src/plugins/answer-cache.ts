import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TWriteCount } from '../db/write-count';
import type { TLoadedUser } from './session-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's 200 answer may be kept and sent again, byte for byte, to the same account in
     * the same language while the database has not changed (plugins/answer-cache.ts). Only for
     * reads whose answer is made of the rows of the tables `madeOf` names, the caller and the
     * language alone, and, for a caller who is not an admin, of the caller's own
     * configurations and their logs. `deployment_logs` covers, besides the lines, which
     * configurations exist and whose they are (what a logs read checks of a configuration): a
     * configuration's deletion cascades to its lines, and its owner's logs counter moves with
     * either (migration 0010).
     */
    cachedAnswer?: {
      madeOf: readonly string[];
      /** Given the parsed query, true for the answers not to keep (made of more than madeOf). */
      unless?: (query: Record<string, unknown>) => boolean;
    };
  }
}

export interface TAnswerCacheOptions {
  /**
   * PGlite: the writes this process makes, the only ones there are. Absent on PostgreSQL, where
   * what is read with the session tells: the account's answer version for a user, the
   * database's snapshot (`pg_current_snapshot()`) for an admin.
   */
  writes?: TWriteCount;
  /** Bytes of answers kept at most; the oldest go first. */
  maxBytes?: number;
}

interface TKept {
  version: string;
  /**
   * A large answer is kept encoded: a string is encoded to UTF-8 again on every send. A small
   * one stays a string, which Node sends in one write with the headers (bytes go as a second
   * chunk), and that saves more than its encoding costs.
   */
  payload: string | Buffer;
  bytes: number;
}

interface TPending {
  key: string;
  version: string;
  /** The answer is the kept one: nothing to keep again. */
  sent: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const ENCODED_FROM = 16 * 1024;

/**
 * What the account's counters (db/schema/answer-versions.ts) say of the tables an answer is made
 * of; none when one of them is counted by neither (such an answer is never kept).
 */
function accountVersionOf(loaded: TLoadedUser, madeOf: readonly string[]): string | undefined {
  let version = 'a';
  for (const table of madeOf) {
    if (table === 'proxy_configurations') version += `p${loaded.proxiesVersion}`;
    else if (table === 'deployment_logs') version += `l${loaded.logsVersion}`;
    else return undefined;
  }
  return version;
}

/**
 * Keeps the serialized answers of the routes marked `cachedAnswer` and sends them again while
 * the database holds what they were made of. Every other step of the request still runs: the
 * session, the account read for the guard (so an ended session, a demotion or a deleted account
 * refuses at once), the checks of the request; only the handler and its serialization are
 * skipped. An answer is kept under the version seen before the handler read anything, and on
 * PGlite only when no write started or ended while it was made: an answer never reflects less
 * than its version says. API tokens get no kept answers (a token narrows its owner's rights).
 */
async function answerCachePlugin(app: FastifyInstance, options: TAnswerCacheOptions) {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const kept = new Map<string, TKept>();
  const pending = new WeakMap<FastifyRequest, TPending>();
  let bytes = 0;

  function versionOf(request: FastifyRequest, madeOf: readonly string[]): string | undefined {
    if (request.apiToken || !request.user) return undefined;
    if (options.writes) return `w${options.writes.current(madeOf)}`;
    const loaded = request.sessionUser;
    if (!loaded || loaded.userId !== request.user.id) return undefined;
    // An admin may read anyone's rows: any commit anywhere. Anyone else reads only their own
    // configurations and logs, whose every change moves one of their account's counters.
    if (request.user.role === 'admin') return `s${loaded.snapshot}`;
    return accountVersionOf(loaded, madeOf);
  }

  function keep(key: string, version: string, text: string) {
    const encoded = Buffer.from(text);
    const entry: TKept = {
      version,
      payload: encoded.length < ENCODED_FROM ? text : encoded,
      bytes: encoded.length,
    };
    const old = kept.get(key);
    if (old) {
      bytes -= old.bytes;
      kept.delete(key);
    }
    if (entry.bytes > maxBytes / 4) return;
    for (const [oldestKey, oldest] of kept) {
      if (bytes + entry.bytes <= maxBytes) break;
      kept.delete(oldestKey);
      bytes -= oldest.bytes;
    }
    kept.set(key, entry);
    bytes += entry.bytes;
  }

  // Callback hooks, not async ones: they run on every request.
  app.addHook('preHandler', (request, reply, done) => {
    // GET only: the HEAD route Fastify adds beside it shares its config, and sends no body.
    const cached = request.routeOptions.config.cachedAnswer;
    const version =
      cached &&
      request.method === 'GET' &&
      !cached.unless?.(request.query as Record<string, unknown>)
        ? versionOf(request, cached.madeOf)
        : undefined;
    if (version === undefined) {
      done();
      return;
    }
    const user = request.user!;
    const language = request.language;
    const key = `${user.id}\n${user.role}\n${language}\n${request.url}`;
    const hit = kept.get(key);
    const sent = hit?.version === version;
    pending.set(request, { key, version, sent });
    if (!sent) {
      done();
      return;
    }
    // Set before sending: Fastify would call a Buffer application/octet-stream.
    reply.header('content-type', JSON_TYPE);
    // Its compressed copies are kept with it (plugins/compress.ts).
    request.keptAnswer = hit;
    reply.send(hit.payload);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const entry = pending.get(request);
    if (entry && !entry.sent && reply.statusCode === 200 && typeof payload === 'string') {
      // On PGlite, only when no write to what it is made of started or ended meanwhile.
      const madeOf = request.routeOptions.config.cachedAnswer!.madeOf;
      if (!options.writes || `w${options.writes.current(madeOf)}` === entry.version) {
        keep(entry.key, entry.version, payload);
      }
    }
    done();
  });
}

export const answerCache = fp(answerCachePlugin, { name: 'portico-answer-cache' });
