// Fastify's own route list, gathered through the onRoute hook buildApp offers, so the security
// tests cover what the app really serves rather than a list someone remembered to update.
import type { RouteOptions } from 'fastify';

export interface TRoute {
  method: string;
  url: string;
  websocket: boolean;
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function routeRecorder() {
  const seen: TRoute[] = [];
  return {
    onRoute(route: RouteOptions) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const websocket = Boolean((route as { websocket?: boolean }).websocket);
      for (const method of methods) seen.push({ method, url: route.url, websocket });
    },
    /**
     * Every route once. A HEAD route next to a GET of the same URL is left out: Fastify adds it
     * itself and it runs the GET's hooks and handler, so the GET row decides for both.
     */
    routes(): TRoute[] {
      const keys = new Set(seen.map((r) => `${r.method} ${r.url}`));
      const unique = new Map<string, TRoute>();
      for (const route of seen) {
        if (route.method === 'HEAD' && keys.has(`GET ${route.url}`)) continue;
        unique.set(`${route.method} ${route.url}`, route);
      }
      return [...unique.values()];
    },
  };
}
