import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from '../modules/sessions/session-info';
import { reachableSchemas, withTypedNullables } from './openapi-schemas';

const DOCS_PREFIX = '/api/docs';

/** OpenAPI generated from the zod route schemas: every route appears by construction. */
async function swaggerPlugin(app: FastifyInstance) {
  const zodTransform = createJsonSchemaTransform({
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
  });
  const zodComponents = createJsonSchemaTransformObject({});
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Portico API',
        description:
          'Two ways in. A browser session: the `portico.sid` cookie, and every write carries the ' +
          'X-CSRF-Token header (GET /api/csrf-token). Or a personal API token (created on the ' +
          'settings page): `Authorization: Bearer ptk_…`, no CSRF token; scope `read` allows GET ' +
          'only, `manage` also writes and deploys. A token has user rights only (never admin), ' +
          'and is refused on the routes marked cookie-only: signing in, the account itself and ' +
          'the /ws log socket.',
        version: '0.1.0',
      },
      // Relative: the API is wherever this document was fetched from (each instance its own).
      servers: [{ url: '/', description: 'The Portico that serves this document' }],
      components: {
        securitySchemes: {
          cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token, ptk_…' },
        },
      },
      security: [{ cookie: [] }, { bearer: [] }],
    },
    // Components: the schemas registered with an id (`Text`, which refers to itself), once each.
    transformObject: (input) => {
      const document = zodComponents(input);
      if (!('components' in document)) return document;
      const schemas: Record<string, unknown> = withTypedNullables(
        document.components?.schemas ?? {},
      );
      const components = {
        ...document.components,
        schemas: reachableSchemas(document.paths, schemas),
      };
      return { ...document, components } as typeof document;
    },
    transform: (input) => {
      const output = zodTransform(input);
      const schema = withTypedNullables(output.schema);
      // A route that refuses tokens says so: its only way in is the session cookie.
      if (!input.route.config?.sessionOnly) return { ...output, schema };
      return { ...output, schema: { ...schema, security: [{ cookie: [] }] } };
    },
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
