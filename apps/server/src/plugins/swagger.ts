import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';

const DOCS_PREFIX = '/api/docs';

/** OpenAPI generated from the zod route schemas: every route appears by construction. */
async function swaggerPlugin(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Portico API',
        description: 'Session cookie auth; every write needs the X-CSRF-Token header.',
        version: '0.1.0',
      },
    },
    transform: createJsonSchemaTransform({
      skipList: [
        DOCS_PREFIX,
        `${DOCS_PREFIX}/`,
        `${DOCS_PREFIX}/initOAuth`,
        `${DOCS_PREFIX}/json`,
        `${DOCS_PREFIX}/uiConfig`,
        `${DOCS_PREFIX}/yaml`,
        `${DOCS_PREFIX}/*`,
        `${DOCS_PREFIX}/static/*`,
      ],
    }),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // The app's CSP plus what the UI's bundle needs (inline styles, data: fonts and images).
    staticCSP:
      "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; " +
      "frame-ancestors 'none'; img-src 'self' data:; object-src 'none'; script-src 'self'; " +
      "script-src-attr 'none'; style-src 'self' 'unsafe-inline'; form-action 'self'",
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export const swagger = fp(swaggerPlugin, { name: 'portico-swagger' });
