import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The CSP the built web app passes: everything from our origin, no inline scripts. Inline style
 * attributes stay allowed because Radix positions popovers with them.
 */
const CSP_DIRECTIVES = {
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

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  // HSTS belongs to the HTTPS front (nginx/proxy), not to an app that may run on plain HTTP.
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets for these options. They depend on nothing in the request, so helmet
 * runs once, here, against a stand-in response that records them (@fastify/helmet would rebuild
 * helmet and re-parse the CSP on every request).
 */
function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

async function securityHeadersPlugin(app: FastifyInstance) {
  const headers = helmetHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // API answers carry account data: no browser or proxy may keep a copy. A route that says
    // otherwise sets its own cache-control later, which wins.
    if ((request.routeOptions.url ?? request.url).startsWith('/api/')) {
      reply.header('cache-control', 'no-store');
    }
    done();
  });
}

export const securityHeaders = fp(securityHeadersPlugin, { name: 'portico-security-headers' });
