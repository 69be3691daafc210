// The import boundaries (docs/CODE_STYLE.md), checked by `npm run lint`. Server product code
// under apps/server/src (every file there but *.test.ts) keeps drizzle in repositories and db/,
// ssh2 in deploy/ssh/, pg-boss and raw pg in the queue module (and db/ for pg), never reaches
// into test code, loads the packages an idle instance has no use for only with import(), and
// modules never import plugins; only db/ and the queue reach the raw PGlite; route files never import a repository; no
// two folders of modules/ import each other, directly or through others (an import cycle); the
// engine is reached through deploy/engine/index.ts; DNS, HTTP, TCP, TLS and SMTP go through net/;
// a rate limit is made by plugins/rate-limit.ts alone; only app.ts imports route files; the
// caller's language is worked out in plugins/language.ts alone; no two files import each other,
// directly or through others (type-only imports too); the app's error types are
// defined and exported by lib/app-error.ts alone; proxy_configurations is read by the proxies
// module (and db/) alone, each table of OWNED_TABLES by its module (and db/) alone. The web
// app (apps/web/src): no feature imports another, the shared places (lib/, hooks/,
// components/) import no feature, a query key is written in one file, and no two files import
// each other (type-only imports too).
// Usage: tsx scripts/check-imports.ts [server root, default apps/server] [web root, default apps/web]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TViolation {
  file: string;
  specifier: string;
  rule: string;
}

/** How a file imports: its values at load time, only its types, or with import() when used. */
type TImportKind = 'static' | 'type' | 'dynamic';

interface TRule {
  rule: string;
  /** Whether `file` (posix path under src/) may not import `specifier` (resolved when relative). */
  forbids(file: string, specifier: string, target: string | undefined, kind: TImportKind): boolean;
}

/**
 * Packages an idle instance has no use for: loaded with import() at their first use, so an
 * instance that never connects, mails, draws a QR code or (on PostgreSQL) opens PGlite never
 * holds them (docs/PERFORMANCE.md, "Memory and the reads").
 */
const LOADED_AT_FIRST_USE = [
  'ssh2',
  'nodemailer',
  'qr',
  '@electric-sql/pglite',
  'drizzle-orm/pglite',
];

const isPackage = (specifier: string, name: string) =>
  specifier === name || specifier.startsWith(`${name}/`);

/**
 * How Portico reaches other machines besides the database and SSH: DNS, HTTP, TCP, TLS and SMTP.
 * Only the adapters in net/ load them (their types may be imported anywhere), so every outbound
 * call has one place to look at, bound and replace.
 */
const OUTSIDE_IO = ['dns', 'net', 'http', 'https', 'tls', 'dgram', 'http2'];
const isOutsideIo = (specifier: string) =>
  isPackage(specifier, 'undici') ||
  isPackage(specifier, 'nodemailer') ||
  OUTSIDE_IO.some((name) => isPackage(specifier, name) || isPackage(specifier, `node:${name}`));

const RULES: TRule[] = [
  {
    rule: 'only *.repository.ts and db/ import drizzle-orm',
    forbids: (file, spec) =>
      isPackage(spec, 'drizzle-orm') && !file.endsWith('.repository.ts') && !file.startsWith('db/'),
  },
  {
    rule: 'only deploy/ssh/ imports ssh2',
    forbids: (file, spec) => isPackage(spec, 'ssh2') && !file.startsWith('deploy/ssh/'),
  },
  {
    rule: 'only the queue module (jobs/queue.ts) imports pg-boss',
    forbids: (file, spec) => isPackage(spec, 'pg-boss') && file !== 'jobs/queue.ts',
  },
  {
    rule: 'only db/ and the queue module (jobs/queue.ts) import pg',
    forbids: (file, spec) =>
      isPackage(spec, 'pg') && file !== 'jobs/queue.ts' && !file.startsWith('db/'),
  },
  {
    rule: 'product code imports only product code (nothing outside src/, no test file, no shared test fixture)',
    forbids: (_file, spec, target) =>
      isSharedTestSupport(spec) ||
      (target !== undefined && (!target.startsWith('src/') || /\.test(\.tsx?)?$/.test(target))),
  },
  {
    rule: 'modules/ does not import plugins/',
    forbids: (file, _spec, target) =>
      file.startsWith('modules/') && target?.startsWith('src/plugins/') === true,
  },
  {
    rule: `${LOADED_AT_FIRST_USE.join(', ')} are loaded at first use: import their types, or import() them where used`,
    forbids: (_file, spec, _target, kind) =>
      kind === 'static' && LOADED_AT_FIRST_USE.some((name) => isPackage(spec, name)),
  },
  {
    rule: 'route files do not import repositories (services.ts builds them)',
    forbids: (file, _spec, target) =>
      file.endsWith('.routes.ts') && /\.repository(\.ts)?$/.test(target ?? ''),
  },
  {
    rule: 'only app.ts imports route files (a piece two route files share moves down, e.g. into lib/)',
    forbids: (file, _spec, target) => file !== 'app.ts' && /\.routes(\.ts)?$/.test(target ?? ''),
  },
  {
    rule: 'only plugins/rate-limit.ts imports @fastify/rate-limit: a route declares its limits with app.routeLimit',
    forbids: (file, spec) =>
      isPackage(spec, '@fastify/rate-limit') && file !== 'plugins/rate-limit.ts',
  },
  {
    rule: 'only the adapters in net/ load node:dns, node:net, node:http(s), node:tls, undici, nodemailer (import their types, or use net/)',
    forbids: (file, spec, _target, kind) =>
      kind !== 'type' && isOutsideIo(spec) && !file.startsWith('net/'),
  },
  {
    rule: 'outside deploy/engine/, the engine is imported through its index (deploy/engine/index.ts)',
    forbids: (file, _spec, target) =>
      !file.startsWith('deploy/engine/') &&
      target?.startsWith('src/deploy/engine/') === true &&
      !/^src\/deploy\/engine\/index(\.ts)?$/.test(target),
  },
];

/**
 * A file that names a drizzle table: imports it from db/schema (type-only too), or reads it off
 * the schema's namespace. A service's field of the same name (`deps.sshServers`) is no table.
 */
const namesTable = (table: string) =>
  new RegExp(
    `(?<=\\bimport\\s+(?:type\\s+)?\\{[^}]*)\\b${table}\\b(?=[^}]*\\}\\s*from\\s*['"][^'"]*\\bschema(?:/[\\w-]+)?['"])|(?<=\\bschema\\.)${table}\\b`,
  );

/**
 * Each table (SQL name, drizzle name), the folder of modules/ that alone reads and writes it, and
 * the files of another module that join it in one statement with their own table (splitting
 * such a join would double its statements).
 */
const OWNED_TABLES: [string, string, string, string[]?][] = [
  ['ssh_servers', 'sshServers', 'ssh-servers'],
  ['api_tokens', 'apiTokens', 'tokens'],
  ['notification_settings', 'notificationSettings', 'notifications'],
  ['audit_log', 'auditLog', 'audit'],
  // A proxy's run in progress (the reaper's claim), an account's runs counted for its limits.
  [
    'deployments',
    'deployments',
    'deployments',
    ['modules/proxies/proxies.repository.ts', 'modules/proxies/proxy-certificates.repository.ts'],
  ],
  // The certificate watch's reads of the proxies with their certificate's state.
  [
    'certificate_status',
    'certificateStatus',
    'certificates',
    ['modules/proxies/proxy-certificates.repository.ts'],
  ],
  // The key rotation's sealed keys, each named by its proxy's domain.
  [
    'custom_certificates',
    'customCertificates',
    'certificates',
    ['modules/proxies/proxy-credentials.repository.ts'],
  ],
  // The same for the DNS credentials; a wildcard's holders, whether each renews by DNS.
  [
    'dns_challenges',
    'dnsChallenges',
    'certificates',
    [
      'modules/proxies/proxy-credentials.repository.ts',
      'modules/proxies/wildcard-uses.repository.ts',
    ],
  ],
  // The accounts: joined where a page or each request reads its rows and their owner at once.
  [
    'users',
    'users',
    'users',
    [
      // The session and its account in the one statement each signed-in request reads.
      'modules/sessions/sessions.repository.ts',
      // The owner on each row of the admin's all-proxies pages; the owners by proxy count.
      'modules/proxies/proxy-owners.repository.ts',
      // The owner on each row of the admin's list of HTTPS proxies (the certificates' screen).
      'modules/proxies/proxy-certificates.repository.ts',
      // The owner's name on each row of the saved servers' pages.
      'modules/ssh-servers/ssh-servers.repository.ts',
      // The key rotation's webhook URLs, each named by its account's username.
      'modules/notifications/notifications.repository.ts',
    ],
  ],
];

/** Rules on what a file says rather than what it imports: each has one owner. */
const TEXT_RULES: { rule: string; owner: string | string[]; said: RegExp }[] = [
  {
    rule: "only plugins/language.ts works out the caller's language (pickLanguage): read request.language",
    owner: 'plugins/language.ts',
    said: /\bpickLanguage\b/,
  },
  {
    rule: 'only plugins/rate-limit.ts makes a limiter (createRateLimit, a rateLimit route option): a route declares its limits with app.routeLimit',
    owner: 'plugins/rate-limit.ts',
    said: /\bcreateRateLimit\b|\brateLimit\s*:\s*\{/,
  },
  {
    rule: 'only net/http.ts makes an outbound HTTP request (fetch): use httpRequest from net/http.ts',
    owner: 'net/http.ts',
    said: /(?<![\w.$])fetch\s*\(|\bglobalThis\.fetch\b/,
  },
  {
    rule: 'only lib/secrets.ts opens the secret key file (openSecretBox): take the one secretBox the composition root builds',
    owner: 'lib/secrets.ts',
    said: /\bopenSecretBox\b/,
  },
  {
    rule: 'the composition root (services.ts, or a CLI command) makes the one secretBoxLoader: services take it as a dependency',
    owner: ['lib/secrets.ts', 'services.ts', 'cli/'],
    said: /\bsecretBoxLoader\s*\(/,
  },
  {
    rule: 'the proxies module owns proxy_configurations: another module asks its repository or service (services.ts hands the function over)',
    owner: ['db/', 'modules/proxies/'],
    said: /\bproxyConfigurations\b/,
  },
  ...OWNED_TABLES.map(([table, name, module, joins = []]) => ({
    rule: `the ${module} module owns ${table}: another module asks its repository or service (services.ts hands the function over)`,
    owner: ['db/', `modules/${module}/`, ...joins],
    said: namesTable(name),
  })),
  {
    rule: 'only lib/app-error.ts defines or exports the app errors (AppError and its kinds)',
    owner: 'lib/app-error.ts',
    said: /\bclass\s+\w+\s+extends\s+(?:AppError|KeyedAppError|RetryLaterError|FieldsAppError)\b|\bexport\s*\{[^}]*\b(?:AppError|KeyedAppError|RetryLaterError|FieldsAppError)\b[^}]*\}/,
  },
];

/**
 * The raw PGlite instance (`database.pglite`, or the package itself): a write through it would go
 * uncounted, and an answer kept from before it (plugins/answer-cache.ts) would be served stale.
 */
const RAW_PGLITE = /\.pglite\b|['"]@electric-sql\/pglite['"/]/;
const RAW_PGLITE_RULE =
  'only db/ and the queue module (jobs/queue.ts, whose pg-boss keeps its own schema) reach the raw PGlite instance: every other statement goes through the counting proxy (db/write-count.ts)';

/** packages/shared/test: fixtures both sides' tests read, never product code. */
function isSharedTestSupport(spec: string): boolean {
  return spec.startsWith('@portico/shared/test/');
}

const IMPORT =
  /(?:^|[^\w.])(?:import|export)\s*(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function productFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...productFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

const posix = (path: string) => path.split(sep).join('/');

/** Every import of a product file under `<serverRoot>/src` that breaks a rule. */
export function checkImports(serverRoot: string): TViolation[] {
  const src = join(serverRoot, 'src');
  const violations: TViolation[] = [];
  const crossModule: TModuleImport[] = [];
  const fileImports: TModuleImport[] = [];
  const noExtension = (path: string) => path.replace(/\.tsx?$/, '');
  const known = new Set(
    productFiles(src).map((path) => noExtension(posix(relative(serverRoot, path)))),
  );
  for (const path of productFiles(src)) {
    const file = posix(relative(src, path));
    const text = readFileSync(path, 'utf8');
    if (RAW_PGLITE.test(text) && !file.startsWith('db/') && file !== 'jobs/queue.ts') {
      violations.push({
        file: posix(relative(serverRoot, path)),
        specifier: '.pglite',
        rule: RAW_PGLITE_RULE,
      });
    }
    for (const { rule, owner, said } of TEXT_RULES) {
      const owners = typeof owner === 'string' ? [owner] : owner;
      const owned = owners.some((o) => (o.endsWith('/') ? file.startsWith(o) : file === o));
      const found = !owned && text.match(said);
      if (found)
        violations.push({ file: posix(relative(serverRoot, path)), specifier: found[0], rule });
    }
    for (const match of text.matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2])!;
      const kind: TImportKind =
        match[2] !== undefined
          ? 'dynamic'
          : /^\W?(?:import|export)\s+type\s/.test(match[0])
            ? 'type'
            : 'static';
      const target = specifier.startsWith('.')
        ? posix(relative(serverRoot, resolve(dirname(path), specifier)))
        : undefined;
      for (const { rule, forbids } of RULES) {
        if (forbids(file, specifier, target, kind)) {
          violations.push({ file: posix(relative(serverRoot, path)), specifier, rule });
        }
      }
      const imported = [target, `${target}/index`].find(
        (candidate) => candidate !== undefined && known.has(noExtension(candidate)),
      );
      if (imported) {
        const at = posix(relative(serverRoot, path));
        fileImports.push({ file: at, specifier, from: noExtension(at), to: noExtension(imported) });
      }
      const from = moduleOf(`src/${file}`);
      const to = moduleOf(target);
      if (from && to && from !== to) {
        crossModule.push({ file: posix(relative(serverRoot, path)), specifier, from, to });
      }
    }
  }
  return [
    ...violations,
    ...cycles(crossModule, CYCLE_RULE),
    ...cycles(fileImports, FILE_CYCLE_RULE),
  ];
}

interface TModuleImport {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

/** The folder of modules/ a path (relative to the server root) lies in. */
const moduleOf = (target: string | undefined) => target?.match(/^src\/modules\/([^/]+)\//)?.[1];

const CYCLE_RULE = 'no import cycle between folders of modules/ (move the shared piece down)';
const FILE_CYCLE_RULE =
  'no import cycle between files, type-only imports included (move the shared type down)';

/** Every import (module to module, or file to file) that can reach its importer back: each is on a loop. */
function cycles(imports: TModuleImport[], rule: string): TViolation[] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of imports) next.set(from, (next.get(from) ?? new Set()).add(to));
  const reaches = (start: string, goal: string) => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (at === goal) return true;
      if (seen.has(at)) continue;
      seen.add(at);
      stack.push(...(next.get(at) ?? []));
    }
    return false;
  };
  return imports
    .filter(({ from, to }) => reaches(to, from))
    .map(({ file, specifier }) => ({ file, specifier, rule }));
}

/** The folder of features/ a path under the web app's src/ lies in. */
const featureOf = (path: string) => path.match(/^features\/([^/]+)\//)?.[1];

const WEB_FEATURE_RULE =
  'a web feature imports no other feature: what two features use moves to lib/, hooks/ or components/';
const WEB_TEST_SUPPORT_RULE =
  "only the web app's test support (src/test/) imports packages/shared/test";
const WEB_SHARED_RULE = 'lib/, hooks/ and components/ import no feature (features build on them)';
const WEB_KEY_RULE =
  'a query key is written in one file: lib/query-keys.ts for what several features read';

/** A one-part query key written out, `['/api/...'] as const`. */
const QUERY_KEY = /\[\s*'(\/api\/[^']+)'\s*\]\s*as const/g;

/** Every import of a product file under `<webRoot>/src` that breaks a rule of the web app. */
export function checkWebImports(webRoot: string): TViolation[] {
  const src = join(webRoot, 'src');
  const violations: TViolation[] = [];
  const keys = new Map<string, string[]>();
  const fileImports: TModuleImport[] = [];
  const noExtension = (path: string) => path.replace(/\.tsx?$/, '');
  const known = new Set(productFiles(src).map((path) => noExtension(posix(relative(src, path)))));
  for (const path of productFiles(src)) {
    const file = posix(relative(src, path));
    const at = posix(relative(webRoot, path));
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2])!;
      const target = specifier.startsWith('@/')
        ? specifier.slice(2)
        : specifier.startsWith('.')
          ? posix(relative(src, resolve(dirname(path), specifier)))
          : undefined;
      const imported = [target, `${target}/index`].find(
        (candidate) => candidate !== undefined && known.has(noExtension(candidate)),
      );
      if (imported) {
        fileImports.push({
          file: at,
          specifier,
          from: noExtension(file),
          to: noExtension(imported),
        });
      }
      if (isSharedTestSupport(specifier) && !file.startsWith('test/')) {
        violations.push({ file: at, specifier, rule: WEB_TEST_SUPPORT_RULE });
        continue;
      }
      const to = target === undefined ? undefined : featureOf(`${target}/`);
      if (to === undefined) continue;
      const from = featureOf(file);
      if (from !== undefined && from !== to) {
        violations.push({ file: at, specifier, rule: WEB_FEATURE_RULE });
      } else if (/^(?:lib|hooks|components)\//.test(file)) {
        violations.push({ file: at, specifier, rule: WEB_SHARED_RULE });
      }
    }
    for (const [, key] of text.matchAll(QUERY_KEY)) keys.set(key!, [...(keys.get(key!) ?? []), at]);
  }
  for (const [key, files] of keys) {
    const written = [...new Set(files)];
    if (written.length > 1) {
      for (const file of written) violations.push({ file, specifier: key, rule: WEB_KEY_RULE });
    }
  }
  return [...violations, ...cycles(fileImports, FILE_CYCLE_RULE)];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? 'apps/server');
  const web = resolve(process.argv[3] ?? 'apps/web');
  const violations = [...checkImports(root), ...checkWebImports(web)];
  for (const v of violations) console.error(`${v.file}: imports '${v.specifier}': ${v.rule}`);
  if (violations.length > 0) process.exit(1);
  const named = (dir: string) => relative(process.cwd(), dir) || '.';
  console.info(`import boundaries: ${named(root)} and ${named(web)} are clean`);
}
