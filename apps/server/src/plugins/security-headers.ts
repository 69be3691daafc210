import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The CSP the built web app passes: everything from our origin, no inline scripts. Inline style
 * attributes stay allowed because Radix positions popovers with them.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Behind plain HTTP on a LAN (first start) upgrading would break every asset.
  upgradeInsecureRequests: null,
};

async function securityHeadersPlugin(app: FastifyInstance) {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    // HSTS belongs to the HTTPS front (nginx/proxy), not to an app that may run on plain HTTP.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  // API answers carry account data: no browser or proxy may keep a copy.
  app.addHook('onSend', async (request, reply) => {
    const route = request.routeOptions.url ?? request.url;
    if (route.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });
}

export const securityHeaders = fp(securityHeadersPlugin, { name: 'portico-security-headers' });
