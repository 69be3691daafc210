// nginx as the load balancer of docs/OPERATIONS.md, on loopback: the doc's block (between its
// balancer-config markers) with only the ports changed and TLS left out, so the configuration the
// tests run is the one the doc gives. Used by the server's balancer tier and the browser's.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DOC = join(import.meta.dirname, '../../docs/OPERATIONS.md');

/** The doc's balancer block, for these ports, without TLS; every change must apply. */
export function balancerConfig(ports: number[], listen: number): string {
  const doc = readFileSync(DOC, 'utf8');
  const block =
    /<!-- balancer-config:start -->\n```nginx\n([\s\S]*?)```\n<!-- balancer-config:end -->/.exec(
      doc,
    );
  if (!block) throw new Error('docs/OPERATIONS.md has no balancer-config block');
  const edits: [RegExp, string][] = [
    [/127\.0\.0\.1:3001/, `127.0.0.1:${ports[0]}`],
    [/127\.0\.0\.1:3002/, `127.0.0.1:${ports[1]}`],
    [/listen 443 ssl http2;/, `listen 127.0.0.1:${listen};`],
    [/ *ssl_certificate .*\n/, ''],
    [/ *ssl_certificate_key .*\n/, ''],
  ];
  let text = block[1]!;
  for (const [pattern, replacement] of edits) {
    if (!pattern.test(text)) throw new Error(`the balancer block no longer has ${pattern}`);
    text = text.replace(pattern, replacement);
  }
  return text;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface TBalancer {
  /** http://127.0.0.1:<port> */
  base: string;
  /** Which instance (index into the ports) answered each request so far: [instance, path, status]. */
  served(): [number, string, number][];
  stop(): Promise<void>;
}

/**
 * nginx (/usr/sbin/nginx, as root) balancing over `ports` with the doc's block; resolves once it
 * answers /readyz through an instance. Its access log records the upstream of every request.
 */
export async function startBalancer(ports: number[]): Promise<TBalancer> {
  const listen = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'portico-balancer-'));
  writeFileSync(join(prefix, 'portico.conf'), balancerConfig(ports, listen));
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      'user root;',
      'worker_processes 1;',
      `pid ${prefix}/nginx.pid;`,
      `error_log ${prefix}/error.log;`,
      'events {}',
      'http {',
      "  log_format upstream '$uri|$upstream_addr|$status';",
      `  access_log ${prefix}/access.log upstream;`,
      `  client_body_temp_path ${prefix}/body;`,
      `  proxy_temp_path ${prefix}/proxy;`,
      `  include ${prefix}/portico.conf;`,
      '}',
    ].join('\n'),
  );
  const nginx: ChildProcess = spawn(
    '/usr/sbin/nginx',
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: 'inherit' },
  );
  const base = `http://127.0.0.1:${listen}`;
  for (let i = 0; ; i++) {
    const status = (await fetch(`${base}/readyz`).catch(() => null))?.status;
    if (status === 200) break;
    if (i >= 100) throw new Error(`nginx did not come up: ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    served() {
      let log = '';
      try {
        log = readFileSync(join(prefix, 'access.log'), 'utf8');
      } catch {
        return [];
      }
      return log
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          const [path = '', upstream = '', status = ''] = line.split('|');
          // A request retried on the next upstream lists both ("a, b"): the last one answered.
          const port = Number(upstream.split(', ').at(-1)?.split(':').at(-1));
          const instance = ports.indexOf(port);
          return instance >= 0
            ? [[instance, path, Number(status)] as [number, string, number]]
            : [];
        });
    },
    async stop() {
      if (nginx.exitCode === null) {
        const exited = new Promise((resolve) => nginx.once('exit', resolve));
        nginx.kill('SIGTERM');
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
