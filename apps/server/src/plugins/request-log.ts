import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** One line per request (Fastify's default is two), with no header or body in it. */
async function requestLogPlugin(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ip: request.ip,
      },
      'request',
    );
  });
}

export const requestLog = fp(requestLogPlugin, { name: 'portico-request-log' });
