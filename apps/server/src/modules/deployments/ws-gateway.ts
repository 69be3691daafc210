import websocket from '@fastify/websocket';
import { isLanguage, type TLanguage } from '@portico/shared/api-error';
import { renderText } from '@portico/shared/i18n/text';
import type { TWsMessage } from '@portico/shared/proxy/api';
import { WS_CLOSE_REFUSED, ZUuid } from '@portico/shared/proxy/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../../lib/app-error';
import type { TSessionEnds } from '../sessions/session-ends';
import type { TLiveLogService } from './live-log.service';
import type { TLogBus } from './log-bus';
import { progressMessage } from './run-log';

export interface TWsGatewayOptions {
  bus: TLogBus;
  liveLog: TLiveLogService;
  /** How often open sockets check their session still exists; default 30 s. */
  sessionRecheckMs?: number;
  /** Sessions ended by an action in this process (settings, password change): close at once. */
  sessionEnds?: TSessionEnds;
}

// Sent without any data when the caller may not watch (or not one more socket).
const WS_POLICY_VIOLATION = WS_CLOSE_REFUSED;

/**
 * Open log sockets one session, and one account across its sessions, may hold: far more than the
 * tabs a person keeps open (each watches one configuration), far fewer than what would let one
 * signed-in client tie up the server's memory and event loop. The next one is closed at once
 * with a reason naming the limit.
 */
const WS_LIMITS = { perSession: 20, perUser: 50 } as const;

const SESSION_ENDING = new Set(['/api/logout', '/api/login', '/api/register']);
const ROLE_CHANGE = '/api/admin/users/:id/role';

/** Adds the socket under key; the returned function takes it out again. */
function track(map: Map<string, Set<WebSocket>>, key: string, socket: WebSocket): () => void {
  const set = map.get(key) ?? new Set();
  set.add(socket);
  map.set(key, set);
  return () => {
    set.delete(socket);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

/** The viewer's language: `?lang=` (the page's language), else Accept-Language. */
function socketLanguage(request: FastifyRequest): TLanguage {
  const lang = (request.query as { lang?: unknown }).lang;
  return isLanguage(lang) ? lang : request.language;
}

/** A progress line's words rendered again from its text in `language`; other messages as they are. */
function inLanguage(message: TWsMessage, language: TLanguage): TWsMessage {
  if (message.type !== 'deployment_progress' || !message.data.text) return message;
  return {
    ...message,
    data: { ...message.data, message: renderText(language, message.data.text) },
  };
}

/** A browser always sends Origin on a WebSocket: it must name this very host (no CSWSH). */
function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw new AppError('forbidden', 403);
  }
  if (host !== request.host) throw new AppError('forbidden', 403);
}

/**
 * /ws?configId=: the live log of a configuration. Needs the session cookie and a same-origin
 * page; only the owner or an admin gets data. On connect it replays the current run's lines,
 * then streams, so a client that reconnects misses nothing.
 */
export async function wsGateway(app: FastifyInstance, options: TWsGatewayOptions) {
  await app.register(websocket, { options: { maxPayload: 4096 } });
  const bySession = new Map<string, Set<WebSocket>>();
  const byAdmin = new Map<string, Set<WebSocket>>();
  const byUser = new Map<string, Set<WebSocket>>();
  const userOfSession = new Map<string, string>();
  const closeAll = (sockets: Set<WebSocket> | undefined, reason: string) => {
    for (const socket of sockets ?? []) socket.close(WS_POLICY_VIOLATION, reason);
  };

  const unsubscribeEnds = options.sessionEnds?.subscribe((sids) => {
    for (const sid of sids) {
      closeAll(bySession.get(sid), 'session ended');
      bySession.delete(sid);
    }
  });

  app.get(
    '/ws',
    {
      websocket: true,
      // The log socket is for the browser (cookie and Origin): an API token is refused here.
      config: { sessionOnly: true },
      preValidation: [async (request) => checkOrigin(request), app.requireUser],
    },
    async (socket, request) => {
      const user = request.user!;
      const sid = request.session.sessionId;
      // Counted before anything is awaited, so sockets opened all at once are counted too.
      if ((bySession.get(sid)?.size ?? 0) >= WS_LIMITS.perSession) {
        socket.close(
          WS_POLICY_VIOLATION,
          `too many open sockets for this session (limit ${WS_LIMITS.perSession})`,
        );
        return;
      }
      if ((byUser.get(user.id)?.size ?? 0) >= WS_LIMITS.perUser) {
        socket.close(
          WS_POLICY_VIOLATION,
          `too many open sockets for this account (limit ${WS_LIMITS.perUser})`,
        );
        return;
      }
      userOfSession.set(sid, user.id);
      const untrack = [track(bySession, sid, socket), track(byUser, user.id, socket)];
      let unsubscribe = () => {};
      socket.on('close', () => {
        unsubscribe();
        for (const done of untrack) done();
      });

      const parsed = ZUuid.safeParse((request.query as { configId?: string }).configId);
      const row = parsed.success
        ? await options.liveLog.load(parsed.data, user).catch(() => undefined)
        : undefined;
      if (!parsed.success || !row) {
        socket.close(WS_POLICY_VIOLATION, 'not allowed');
        return;
      }
      // Gone while its configuration was looked up: nothing to stream to.
      if (socket.readyState !== socket.OPEN) return;
      const configId = parsed.data;
      // Watching someone else's proxy rests on the admin role: losing it ends the stream.
      if (row.userId !== user.id) untrack.push(track(byAdmin, user.id, socket));

      // Each viewer reads Portico's lines in their own language, whoever started the run.
      const language = socketLanguage(request);
      const send = (message: TWsMessage) => {
        if (socket.readyState === socket.OPEN) {
          socket.send(JSON.stringify(inLanguage(message, language)));
        }
      };
      const buffered: TWsMessage[] = [];
      let replaying = true;
      unsubscribe = options.bus.subscribe(configId, (message) => {
        if (replaying) buffered.push(message);
        else send(message);
      });

      try {
        const run = await options.liveLog.currentRun(configId);
        let lastId = 0;
        for (const row of run.lines) {
          send(progressMessage(row));
          lastId = row.id;
        }
        const current = await options.liveLog.load(configId, user);
        send({
          type: 'deployment_status',
          data: { status: current.status, deploymentId: run.id },
        });
        replaying = false;
        for (const message of buffered) {
          if (message.type === 'deployment_progress' && message.data.id <= lastId) continue;
          send(message);
        }
      } catch (error) {
        request.log.warn({ err: error }, 'log socket replay failed');
        socket.close(1011, 'replay failed');
      }
    },
  );

  // A session ends on sign-out, and on sign-in or registration from the same browser (the
  // session is replaced): its sockets must not outlive it.
  // Callback hooks, not async ones: they run on every request, and do nothing on almost all.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'POST' && SESSION_ENDING.has(request.routeOptions.url ?? '')) {
      (request as { endingSession?: string }).endingSession = request.session?.sessionId;
    }
    done();
  });
  const endSocketsAfter = (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode >= 400) return;
    const sid = (request as { endingSession?: string }).endingSession;
    if (sid) {
      closeAll(bySession.get(sid), 'session ended');
      bySession.delete(sid);
    }
    if (request.method === 'PATCH' && request.routeOptions.url === ROLE_CHANGE) {
      const { id } = request.params as { id: string };
      if ((request.body as { role?: string }).role !== 'admin')
        closeAll(byAdmin.get(id), 'demoted');
    }
  };
  app.addHook('onResponse', (request, reply, done) => {
    endSocketsAfter(request, reply);
    done();
  });
  // A session can also end where no hook here sees it: expiry, a password reset from the CLI,
  // a sign-out on another instance. Now and then the open sockets' sessions are looked up in one
  // query, and each admin watcher's role.
  let checking = false;
  const recheck = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      // Only the sessions asked about: one opened during the query is not in its answer.
      const sids = [...bySession.keys()];
      const live = await options.liveLog.usersOfSessions(sids);
      for (const sid of sids) {
        const sockets = bySession.get(sid);
        if (!sockets || live.get(sid) === userOfSession.get(sid)) continue;
        closeAll(sockets, 'session ended');
        bySession.delete(sid);
      }
      for (const sid of userOfSession.keys()) if (!bySession.has(sid)) userOfSession.delete(sid);
      // Demoted by the CLI or another instance: no hook here saw it.
      for (const [adminId, sockets] of byAdmin) {
        if ((await options.liveLog.roleOf(adminId)) !== 'admin') closeAll(sockets, 'demoted');
      }
    } catch (error) {
      // The database is briefly unreachable: not a reason to cut streams; the next round retries.
      app.log.warn({ err: error }, 'socket session check failed');
    } finally {
      checking = false;
    }
  }, options.sessionRecheckMs ?? 30_000);
  recheck.unref();

  app.addHook('onClose', async () => {
    clearInterval(recheck);
    unsubscribeEnds?.();
    for (const set of bySession.values()) for (const socket of set) socket.terminate();
  });
}
