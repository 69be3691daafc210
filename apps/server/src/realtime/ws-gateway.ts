import websocket from '@fastify/websocket';
import type { TWsMessage } from '@portico/shared/proxy/api';
import { ZUuid } from '@portico/shared/proxy/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../lib/app-error';
import { progressMessage } from '../modules/deployments/deployment-context';
import type { TDeploymentsRepository } from '../modules/deployments/deployments.repository';
import type { TProxiesService } from '../modules/proxies/proxies.service';
import type { TLogBus } from './log-bus';

export interface TWsGatewayOptions {
  bus: TLogBus;
  proxies: TProxiesService;
  deployments: TDeploymentsRepository;
}

// RFC 6455 1008: policy violation. Sent without any data when the caller may not watch.
export const WS_POLICY_VIOLATION = 1008;

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

  app.get(
    '/ws',
    {
      websocket: true,
      preValidation: async (request) => checkOrigin(request),
      preHandler: app.requireUser,
    },
    async (socket, request) => {
      const parsed = ZUuid.safeParse((request.query as { configId?: string }).configId);
      const user = request.user!;
      let allowed = parsed.success;
      if (parsed.success) {
        allowed = await options.proxies.load(parsed.data, user).then(
          () => true,
          () => false,
        );
      }
      if (!parsed.success || !allowed) {
        socket.close(WS_POLICY_VIOLATION, 'not allowed');
        return;
      }
      const configId = parsed.data;
      const sid = request.session.sessionId;
      const set = bySession.get(sid) ?? new Set();
      set.add(socket);
      bySession.set(sid, set);

      const send = (message: TWsMessage) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      const buffered: TWsMessage[] = [];
      let replaying = true;
      const unsubscribe = options.bus.subscribe(configId, (message) => {
        if (replaying) buffered.push(message);
        else send(message);
      });
      socket.on('close', () => {
        unsubscribe();
        set.delete(socket);
        if (set.size === 0) bySession.delete(sid);
      });

      try {
        const latest = await options.deployments.latestFor(configId);
        let lastId = 0;
        if (latest) {
          for (const row of await options.deployments.logsOfRun(latest.id)) {
            send(progressMessage(row));
            lastId = row.id;
          }
        }
        const current = await options.proxies.load(configId, user);
        send({
          type: 'deployment_status',
          data: { status: current.status, deploymentId: latest?.id ?? null },
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

  // Signing out closes that session's sockets: the stream must not outlive the session.
  app.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && request.routeOptions.url === '/api/logout') {
      (request as { endingSession?: string }).endingSession = request.session?.sessionId;
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    const sid = (request as { endingSession?: string }).endingSession;
    if (!sid || reply.statusCode >= 400) return;
    for (const socket of bySession.get(sid) ?? []) socket.close(WS_POLICY_VIOLATION, 'signed out');
    bySession.delete(sid);
  });
  app.addHook('onClose', async () => {
    for (const set of bySession.values()) for (const socket of set) socket.terminate();
  });
}
