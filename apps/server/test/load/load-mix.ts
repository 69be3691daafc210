import type { TLoadResponse } from './load-http';
import { TARGETS, type TSeededProxy, type TSeededSession } from './load-seed';

export const KINDS = ['list', 'details', 'logs', 'edit'] as const;
export type TKind = (typeof KINDS)[number];

/**
 * What signed-in users do most: the home list (refetched on mount, focus and while deploying),
 * a proxy's details and its deployment log, and now and then the edit dialog's save.
 */
export const MIX_WEIGHTS: Record<TKind, number> = { list: 40, details: 25, logs: 25, edit: 10 };

/** A small seeded generator: the same seed gives the same sequence of requests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOTAL_WEIGHT = KINDS.reduce((sum, k) => sum + MIX_WEIGHTS[k], 0);

export function pickKind(random: () => number): TKind {
  let r = random() * TOTAL_WEIGHT;
  for (const kind of KINDS) {
    r -= MIX_WEIGHTS[kind];
    if (r < 0) return kind;
  }
  return 'list';
}

type TCheck = (r: TLoadResponse) => string | undefined;

const sameIds = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** A proxy as the API shows it: its own fields as last written, and no secret. */
function proxyMismatch(shown: Record<string, unknown>, proxy: TSeededProxy): string | undefined {
  if (shown.id !== proxy.id) return `id ${String(shown.id)}`;
  if (shown.domain !== proxy.domain) return `domain ${String(shown.domain)}`;
  if (shown.targetServer !== proxy.targetServer)
    return `targetServer ${String(shown.targetServer)}`;
  if (shown.status !== 'completed') return `status ${String(shown.status)}`;
  if ('sshPassword' in shown || 'sshPasswordEnc' in shown) return 'a password field';
  return undefined;
}

/** One request of the given kind: what to send, and what its answer must be. */
function requestFor(
  session: TSeededSession,
  kind: TKind,
  random: () => number,
): { send: () => Promise<TLoadResponse>; check: TCheck } {
  const { client, proxies } = session;
  const proxy = proxies[Math.floor(random() * proxies.length)]!;
  const ok200 = (r: TLoadResponse) => (r.status === 200 ? undefined : `status ${r.status}`);
  switch (kind) {
    case 'list':
      return {
        send: () => client.get('/api/user/proxy-configurations'),
        check: (r) => {
          if (r.status !== 200 || !Array.isArray(r.json)) return ok200(r) ?? 'not a list';
          const ids = r.json.map((p: { id: string }) => p.id);
          if (
            !sameIds(
              ids,
              proxies.map((p) => p.id),
            )
          )
            return `ids ${ids.join(',')}`;
          for (const shown of r.json) {
            const wrong = proxyMismatch(shown, proxies.find((p) => p.id === shown.id)!);
            if (wrong) return wrong;
          }
          return undefined;
        },
      };
    case 'details':
      return {
        send: () => client.get(`/api/proxy-configurations/${proxy.id}`),
        check: (r) => ok200(r) ?? proxyMismatch(r.json, proxy),
      };
    case 'logs':
      return {
        send: () => client.get(`/api/deployment-logs/${proxy.id}`),
        check: (r) => {
          if (r.status !== 200 || !Array.isArray(r.json)) return ok200(r) ?? 'not a list';
          const messages = r.json.map((l: { message: string }) => l.message);
          if (messages.join('\n') !== proxy.logMessages.join('\n')) {
            return `${messages.length} lines, not the ${proxy.logMessages.length} seeded`;
          }
          return undefined;
        },
      };
    case 'edit': {
      // The edit dialog's save: one field changed. It only stores (no deployment starts), which
      // the unchanged `completed` status in the answer shows.
      const next = proxy.targetServer === TARGETS[0] ? TARGETS[1] : TARGETS[0];
      return {
        send: () =>
          client.write('PUT', `/api/user/proxy-configurations/${proxy.id}`, {
            domain: proxy.domain,
            targetServer: next,
            serverIp: proxy.serverIp,
            sshUser: proxy.sshUser,
            sshPort: proxy.sshPort,
          }),
        check: (r) => {
          const wrong = ok200(r) ?? proxyMismatch(r.json, { ...proxy, targetServer: next });
          if (!wrong) proxy.targetServer = next;
          return wrong;
        },
      };
    }
  }
}

export interface TKindResult {
  requests: number;
  errors: number;
  latenciesMs: number[];
}

export interface TMixResult {
  requests: number;
  errors: number;
  byKind: Record<TKind, TKindResult>;
  /** Per request, in milliseconds, from sending to the whole answer read. */
  latenciesMs: number[];
  elapsedMs: number;
  /** The first few failures, said in words (kind, session, what was wrong). */
  firstErrors: string[];
}

export interface TMixOptions {
  /** Run until this much time has passed (the benchmark)... */
  durationMs?: number;
  /** ...or exactly this many requests per session (the test). */
  requestsPerSession?: number;
  seed?: number;
  /** Only this kind of request, instead of the mix (to see what one kind costs). */
  only?: TKind;
}

/**
 * Every session runs the mix in its own loop, one request after another (no think time), all
 * sessions at once: a closed loop with as many requests in flight as there are sessions.
 */
export async function runMix(
  sessions: TSeededSession[],
  options: TMixOptions,
): Promise<TMixResult> {
  const result: TMixResult = {
    requests: 0,
    errors: 0,
    byKind: Object.fromEntries(
      KINDS.map((k): [TKind, TKindResult] => [k, { requests: 0, errors: 0, latenciesMs: [] }]),
    ) as Record<TKind, TKindResult>,
    latenciesMs: [],
    elapsedMs: 0,
    firstErrors: [],
  };
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Infinity : started + options.durationMs;
  const limit = options.requestsPerSession ?? Infinity;
  const loop = async (session: TSeededSession) => {
    const random = seededRandom((options.seed ?? 1) * 100_003 + session.index);
    for (let i = 0; i < limit && performance.now() < deadline; i++) {
      const kind = options.only ?? pickKind(random);
      const { send, check } = requestFor(session, kind, random);
      const t0 = performance.now();
      let wrong: string | undefined;
      try {
        const response = await send();
        const ms = performance.now() - t0;
        result.latenciesMs.push(ms);
        result.byKind[kind].latenciesMs.push(ms);
        wrong = check(response);
      } catch (error) {
        wrong = (error as Error).message;
      }
      result.requests += 1;
      result.byKind[kind].requests += 1;
      if (wrong) {
        result.errors += 1;
        result.byKind[kind].errors += 1;
        if (result.firstErrors.length < 5) {
          result.firstErrors.push(`${kind} (session ${session.index}): ${wrong}`);
        }
      }
    }
  };
  await Promise.all(sessions.map(loop));
  result.elapsedMs = performance.now() - started;
  return result;
}

/** The q-th quantile (0..1) of the latencies, nearest rank. */
export function percentile(latenciesMs: number[], q: number): number {
  if (latenciesMs.length === 0) return 0;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
