import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every write (all of them are under /api) carries the token from GET /api/csrf-token in X-CSRF-Token. The secret
 * lives in the server-side session, so a token from another session does not verify.
 */
async function csrfPlugin(app: FastifyInstance) {
  await app.register(fastifyCsrf, {
    // Its '@fastify/session' mode keeps the secret as the session's `_csrf` property, which is
    // what Portico's own session (plugins/session.ts) stores.
    sessionPlugin: '@fastify/session',
    getToken: (request) => {
      const header = request.headers['x-csrf-token'];
      return typeof header === 'string' ? header : '';
    },
  });
  // Every unsafe method, whatever the path: the router decodes percent-escapes (/%61pi/login
  // reaches /api/login), so a check on the raw URL's prefix could be walked around. All writes
  // live under /api anyway.
  // A request authenticated by an API token (plugins/api-token.ts, registered before this one)
  // needs none: its Authorization header is nothing a cross-site page can make a browser send.
  app.addHook('onRequest', (request, reply, done) => {
    if (UNSAFE_METHODS.has(request.method) && !request.apiToken) {
      app.csrfProtection(request, reply, done);
      return;
    }
    done();
  });
}

export const csrf = fp(csrfPlugin, {
  name: 'portico-csrf',
  dependencies: ['portico-session'],
});
