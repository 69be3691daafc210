// The import check of `npm run lint` (scripts/check-imports.ts): each rule, broken once in a
// throwaway tree, fails naming the file; the same imports where they belong pass.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkImports, checkWebImports, type TViolation } from '../../../scripts/check-imports';
import { removeTestTempDir, testTempDir } from './support/temp-dir';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A tree holding these files (path under the tree: content), removed when the test ends. */
function tree(files: Record<string, string>): string {
  const root = testTempDir('portico-imports-');
  onTestFinished(() => removeTestTempDir(root));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** One planted import in a tree otherwise allowed: the one violation, named by its file. */
function expectOnlyViolation(
  check: (root: string) => TViolation[],
  allowed: Record<string, string>,
  file: string,
  text: string,
) {
  const violations = check(tree({ ...allowed, [file]: text }));
  expect(violations).toHaveLength(1);
  expect(violations[0]!.file).toBe(file);
}

/** `npm run lint`'s import check on these roots (server, then web). */
const lint = (...roots: string[]) =>
  spawnSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'scripts/check-imports.ts'), ...roots],
    {
      encoding: 'utf8',
      cwd: REPO_ROOT,
    },
  );

const ALLOWED = {
  'src/modules/users/users.repository.ts': "import { eq } from 'drizzle-orm';\n",
  'src/modules/proxies/proxies.repository.ts':
    "import { proxyConfigurations } from '../../db/schema';\n",
  'src/db/proxy-lists.ts': "import { proxyConfigurations } from './schema';\n",
  'src/modules/ssh-servers/server-reads.repository.ts':
    "import { sshServers, type TSshServerRow } from '../../db/schema';\n",
  'src/modules/tokens/tokens.repository.ts': "import { apiTokens } from '../../db/schema';\n",
  'src/modules/notifications/notifications.repository.ts':
    "import { notificationSettings, users } from '../../db/schema';\n",
  'src/modules/audit/audit.repository.ts':
    "import { auditLog, type TAuditLogRow } from '../../db/schema';\n",
  'src/modules/users/user-reads.repository.ts': "import { users } from '../../db/schema';\n",
  // The session's one statement with its account, named in the rule beside the users module.
  'src/modules/sessions/sessions.repository.ts':
    "import { answerVersions, session, users } from '../../db/schema';\n",
  'src/modules/certificates/certificate-secrets.repository.ts':
    "import { customCertificates, dnsChallenges } from '../../db/schema';\n",
  // A proxies file named for its join with the certificates' tables.
  'src/modules/proxies/wildcard-uses.repository.ts':
    "import { dnsChallenges, proxyConfigurations } from '../../db/schema';\n",
  'src/db/server-password-moves.ts':
    "import { proxyConfigurations, sshServers } from './schema';\n",
  // A service's field named like a table is no table.
  'src/modules/proxies/proxy-servers.ts':
    "import type { TSshServersRepository } from '../ssh-servers/ssh-servers.repository';\nexport const f = (tx) => tx.sshServers.findByTarget(1, {});\n",
  'src/deploy/ssh/connect.ts':
    "import type { Client } from 'ssh2';\nexport const load = () => import('ssh2');\n",
  'src/jobs/queue.ts':
    "import PgBoss from 'pg-boss';\nimport pg from 'pg';\nexport const raw = (d) => d.pglite;\n",
  'src/db/pglite-dir.ts': "export const load = () => import('@electric-sql/pglite');\n",
  'src/db/client.ts':
    "import pg from 'pg';\nimport { sql } from 'drizzle-orm';\nimport type { PGlite } from '@electric-sql/pglite';\n",
  'src/modules/users/users.routes.ts': "import type { TUsersService } from './users.service';\n",
  'src/modules/users/users.service.ts': "import { AppError } from '../../lib/app-error';\n",
  'src/lib/app-error.ts':
    'export class AppError {}\nexport class KeyedAppError extends AppError {}\nexport { AppError as Refusal };\n',
  'src/app.ts': "import { usersRoutes } from './modules/users/users.routes';\n",
  'src/plugins/language.ts':
    "import { pickLanguage } from '@portico/shared/api-error';\nexport const l = (h) => pickLanguage(h);\n",
  'src/plugins/rate-limit.ts':
    "import fastifyRateLimit from '@fastify/rate-limit';\nexport const l = (app) => app.createRateLimit({ max: 1 });\n",
  'src/modules/scripts/scripts.routes.ts':
    "export const p = (app) => app.routeLimit('upload', [{ max: 30, windowMs: 60_000, by: 'user' }]);\n",
  'src/net/dns.ts':
    "import { Resolver } from 'node:dns/promises';\nimport { lookup } from 'node:dns';\n",
  'src/net/http.ts':
    "import http from 'node:http';\nimport https from 'node:https';\nexport const get = (u) => fetch(u);\n",
  'src/net/tcp.ts': "import { Socket } from 'node:net';\nimport { connect } from 'node:tls';\n",
  'src/net/smtp.ts':
    "import type { Transporter } from 'nodemailer';\nexport const load = () => import('nodemailer');\n",
  'src/plugins/security-headers.ts': "import type { IncomingMessage } from 'node:http';\n",
  'src/modules/notifications/webhook.ts':
    "import { httpRequest } from '../../net/http';\nexport const prefetch = (x) => x.fetch(1);\n",
  'src/lib/secrets.ts':
    'export function openSecretBox(f) {}\nexport const secretBoxLoader = (f) => () => openSecretBox(f);\n',
  'src/services.ts':
    "import { secretBoxLoader } from './lib/secrets';\nconst secretBox = secretBoxLoader(options.secretKeyFile);\n",
  'src/cli/user-commands.ts': 'const box = secretBoxLoader(secretKeyFile);\n',
  'src/deploy/engine/index.ts': "export { msg } from './messages';\n",
  'src/deploy/engine/run-deployment.ts': "import { msg } from './messages';\n",
  'src/modules/deployments/deploy-job.ts':
    "import { msg, type TSshAuth } from '../../deploy/engine';\nimport { r } from '../../deploy/engine/index';\n",
  // Tests may look at the database and import test support.
  'src/modules/users/users.test.ts':
    "import { eq } from 'drizzle-orm';\nimport { createTestApp } from '../../../test/support/test-app';\n",
  'test/support/test-app.ts': "import { Client } from 'ssh2';\n",
  'src/modules/ssh-servers/server-facts.test.ts':
    "import { HEALTHY_DEBIAN_FACTS } from '@portico/shared/test/server-facts';\n",
};

const PLANTED: [string, string, string][] = [
  ['drizzle-orm', 'src/modules/users/users.service.ts', "import { eq } from 'drizzle-orm';\n"],
  ['ssh2', 'src/modules/checks/ssh-test.service.ts', "import type { Client } from 'ssh2';\n"],
  ['pg-boss', 'src/modules/deployments/deployments.service.ts', "import PgBoss from 'pg-boss';\n"],
  ['pg', 'src/modules/deployments/log-bus.ts', "import pg from 'pg';\n"],
  ['test code', 'src/app.ts', "import { createTestApp } from '../test/support/test-app';\n"],
  [
    'the raw PGlite instance',
    'src/modules/users/users.repository.ts',
    'export const raw = (d) => d.pglite;\n',
  ],
  [
    'the PGlite package',
    'src/plugins/answer-cache.ts',
    "import type { PGlite } from '@electric-sql/pglite';\n",
  ],
  ['a test file', 'src/lib/helper.ts', "export { x } from './helper.test';\n"],
  [
    'a shared test fixture',
    'src/modules/ssh-servers/server-facts.ts',
    "import { HEALTHY_DEBIAN_FACTS } from '@portico/shared/test/server-facts';\n",
  ],
  [
    'a package loaded at first use, at load time (even in net/)',
    'src/net/smtp.ts',
    "import nodemailer from 'nodemailer';\n",
  ],
  [
    'PGlite at load time, in db/',
    'src/db/pglite-dir.ts',
    "import { PGlite } from '@electric-sql/pglite';\n",
  ],
  [
    'ssh2 at load time, in deploy/ssh/',
    'src/deploy/ssh/connect.ts',
    "import { Client } from 'ssh2';\n",
  ],
  [
    'plugins',
    'src/modules/auth/auth.routes.ts',
    "import { SESSION } from '../../plugins/session';\n",
  ],
  [
    'a repository',
    'src/modules/users/users.routes.ts',
    "import { r } from './users.repository';\n",
  ],
  [
    'another route file, from a route file',
    'src/modules/admin/admin.routes.ts',
    "import { languageOf } from '../proxies/proxies.routes';\n",
  ],
  [
    'a route file, from a service',
    'src/modules/users/users.service.ts',
    "import type { TRoutes } from '../auth/auth.routes';\n",
  ],
  [
    'an engine file past its index',
    'src/modules/deployments/deploy-job.ts',
    "import { msg } from '../../deploy/engine/messages';\n",
  ],
  [
    "the engine's types past its index",
    'src/jobs/shared-locks.ts',
    "import { LOCK_LOST, type THeldLock } from '../deploy/engine/types';\n",
  ],
  [
    'pickLanguage, the language worked out again',
    'src/modules/proxies/proxies.routes.ts',
    "import { pickLanguage } from '@portico/shared/api-error';\nexport const f = (r) => pickLanguage(r.headers['accept-language']);\n",
  ],
  [
    'a second keyed error type',
    'src/modules/checks/keyed-error.ts',
    "import { AppError } from '../../lib/app-error';\nexport class KeyedError extends AppError {}\n",
  ],
  [
    'the keyed error under another name',
    'src/modules/checks/keyed-error.ts',
    "import { KeyedAppError } from '../../lib/app-error';\nexport { KeyedAppError as KeyedError };\n",
  ],
  [
    'a second rate-limit mechanism',
    'src/lib/user-rate-limit.ts',
    'export const keyed = (app, max) => app.createRateLimit({ max, timeWindow: 60_000 });\n',
  ],
  [
    'the rate-limit package',
    'src/modules/checks/checks.routes.ts',
    "import type { RateLimitOptions } from '@fastify/rate-limit';\n",
  ],
  [
    "a limit declared in the package's own route option",
    'src/modules/checks/checks.routes.ts',
    'export const options = { config: { rateLimit: { max: 30, timeWindow: 60_000 } } };\n',
  ],
  [
    'node:dns, past net/',
    'src/modules/checks/dns.service.ts',
    "import { Resolver } from 'node:dns/promises';\n",
  ],
  ['dns by its bare name', 'src/deploy/engine/preflight-dns.ts', "import dns from 'dns';\n"],
  [
    'node:net, past net/',
    'src/modules/destinations/destination-probe.ts',
    "import { Socket } from 'node:net';\n",
  ],
  ['node:https, past net/', 'src/deploy/engine/verify.ts', "import https from 'node:https';\n"],
  [
    'node:tls, past net/',
    'src/modules/certificates/certificate-watch.ts',
    "import tls from 'node:tls';\n",
  ],
  ['undici', 'src/modules/notifications/webhook.ts', "import { request } from 'undici';\n"],
  [
    'nodemailer, past net/ (loaded at first use all the same)',
    'src/modules/notifications/mailer.ts',
    "export const load = () => import('nodemailer');\n",
  ],
  [
    'the global fetch',
    'src/modules/destinations/destination-probe.ts',
    "export const probe = (url) => fetch(url, { method: 'HEAD' });\n",
  ],
  [
    "the proxies' table, from a new repository",
    'src/modules/scripts/scripts.repository.ts',
    "import { proxyConfigurations } from '../../db/schema';\n",
  ],
  [
    "the proxies' table, from a repository that once had an exception (issue 43)",
    'src/modules/admin/admin.repository.ts',
    "import { proxyConfigurations } from '../../db/schema';\n",
  ],
  [
    "the saved servers' table, from another module's repository (issue 43)",
    'src/modules/limits/limits.repository.ts',
    "import {\n  accountLimits,\n  sshServers,\n  type TAccountLimitsRow,\n} from '../../db/schema';\n",
  ],
  [
    "the saved servers' table, type-only from its schema file",
    'src/modules/proxies/proxies-on-servers.repository.ts',
    "import type { sshServers } from '../../db/schema/ssh-servers';\n",
  ],
  [
    "the saved servers' table, off the schema's namespace",
    'src/modules/transfer/transfer.repository.ts',
    "import * as schema from '../../db/schema';\nexport const t = schema.sshServers;\n",
  ],
  [
    "the API tokens' table, from the account limits (issue 43)",
    'src/modules/limits/limits.repository.ts',
    "import { accountLimits, apiTokens } from '../../db/schema';\n",
  ],
  [
    "the alert settings' table, from the key rotation (issue 43)",
    'src/modules/secrets/secrets.repository.ts',
    "import { notificationSettings } from '../../db/schema';\n",
  ],
  [
    'the audit log, from the admin screens (issue 43)',
    'src/modules/admin/admin.repository.ts',
    "import type { TAuditLogRow } from '../../db/schema';\nimport { auditLog } from '../../db/schema';\n",
  ],
  [
    "the uploaded certificates' table, from the key rotation (issue 43)",
    'src/modules/secrets/secrets.repository.ts',
    "import { customCertificates } from '../../db/schema';\n",
  ],
  [
    "the certificates' state, from a proxies file that has no join with it",
    'src/modules/proxies/proxy-owners.repository.ts',
    "import { certificateStatus, proxyConfigurations } from '../../db/schema';\n",
  ],
  [
    'the runs, from the certificates module (issue 43)',
    'src/modules/certificates/certificates.repository.ts',
    "import { certificateStatus, deployments } from '../../db/schema';\n",
  ],
  [
    "the accounts' table, from the account limits (issue 43)",
    'src/modules/limits/limits.repository.ts',
    "import { accountLimits, users } from '../../db/schema';\n",
  ],
  [
    "the accounts' table, from the admin screens (issue 43)",
    'src/modules/admin/admin.repository.ts',
    "import { type TAuditLogRow, users } from '../../db/schema';\n",
  ],
  [
    "the accounts' table, type-only from its schema file, in the key rotation",
    'src/modules/secrets/secrets.repository.ts',
    "import type { users } from '../../db/schema/users';\n",
  ],
  [
    "the accounts' table, from a saved servers file that has no join with it",
    'src/modules/ssh-servers/server-reads.repository.ts',
    "import { sshServers, users } from '../../db/schema';\n",
  ],
  [
    'a lazy loader of the key file of its own',
    'src/modules/two-factor/two-factor.service.ts',
    'let box;\nconst open = () => (box ??= openSecretBox(deps.secretKeyFile));\n',
  ],
  [
    'a second secretBoxLoader, in a service',
    'src/certificate-services.ts',
    'const box = secretBoxLoader(deps.secretKeyFile);\n',
  ],
];

describe('import boundaries', () => {
  it('passes imports where they belong, in product code and in tests', () => {
    expect(checkImports(tree(ALLOWED))).toEqual([]);
  });

  it.each(PLANTED)('fails an import of %s from the wrong file, naming it', (_what, file, text) => {
    expectOnlyViolation(checkImports, ALLOWED, file, text);
  });

  /**
   * An open chain of imports passes; closing it with `closing` fails every import on the loop
   * under `rule` (and under no other rule of this kind).
   */
  function expectLoop(open: Record<string, string>, closing: Record<string, string>, rule: string) {
    expect(checkImports(tree({ ...ALLOWED, ...open }))).toEqual([]);
    const violations = checkImports(tree({ ...ALLOWED, ...open, ...closing })).filter((v) =>
      v.rule.includes(rule),
    );
    expect(violations.map((v) => v.file).sort()).toEqual(
      Object.keys({ ...open, ...closing }).sort(),
    );
  }

  it('fails an import cycle between module folders, naming every import on it', () => {
    // account -> users -> lib is no loop; closing it through audit is (between files too).
    expectLoop(
      {
        'src/modules/account/account.service.ts': "import { u } from '../users/users.service';\n",
        'src/modules/audit/audit.service.ts': "import { a } from '../account/account.service';\n",
      },
      { 'src/modules/users/users.service.ts': "import { r } from '../audit/audit.service';\n" },
      'no import cycle between folders of modules/',
    );
  });

  it('fails a loop between files, even of type-only imports, naming every import on it', () => {
    expectLoop(
      {
        'src/plugins/session-store.ts': "import { sessionDataOf } from './session-object';\n",
        'src/plugins/session-object.ts': "import type { TEnder } from './session-ender';\n",
      },
      { 'src/plugins/session-ender.ts': "import type { TStore } from './session-store';\n" },
      'no import cycle between files',
    );
  });

  it('lets a file of the engine import its neighbours, and app.ts the route files', () => {
    const violations = checkImports(tree(ALLOWED));
    expect(violations.filter((v) => v.file.startsWith('src/deploy/engine/'))).toEqual([]);
    expect(violations.filter((v) => v.file === 'src/app.ts')).toEqual([]);
  });

  it('makes the lint command fail, naming the file and the rule', () => {
    const dir = tree({ ...ALLOWED, [PLANTED[0]![1]]: PLANTED[0]![2] });
    const run = lint(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "src/modules/users/users.service.ts: imports 'drizzle-orm': only *.repository.ts and db/ import drizzle-orm",
    );
  });

  it('holds for Portico itself', () => {
    expect(checkImports(join(REPO_ROOT, 'apps/server'))).toEqual([]);
  });
});

/** A web app tree (paths under apps/web). */
const WEB_ALLOWED = {
  'src/lib/query-keys.ts':
    "export const destinationServersKey = ['/api/destination-servers'] as const;\n",
  'src/lib/current-user.ts': "import { sessionQueryKey } from '@/lib/query-keys';\n",
  'src/components/page.tsx':
    "import { cn } from '@/lib/utils';\nimport { Button } from './ui/button';\n",
  'src/features/admin/api/queries.ts':
    "import { destinationServersKey } from '@/lib/query-keys';\nexport const usersKey = ['/api/admin/users'] as const;\n",
  'src/features/admin/components/users.tsx':
    "import { usersKey } from '../api/queries';\nimport { useUser } from '@/lib/current-user';\n",
  'src/features/wizard/components/step.tsx':
    "import { destinationServersKey } from '../../../lib/query-keys';\nimport { Page } from '@/components/page';\n",
  // The app puts the features together; tests may reach across.
  'src/app/router.tsx': "import { Admin } from '@/features/admin/components/users';\n",
  'src/test/ssh-server.ts':
    "import { HEALTHY_DEBIAN_FACTS } from '@portico/shared/test/server-facts';\n",
  'src/features/wizard/components/step.test.tsx':
    "import { usersKey } from '@/features/admin/api/queries';\nconst k = ['/api/admin/users'] as const;\n",
};

const WEB_PLANTED: [string, string, string][] = [
  [
    'another feature, by alias',
    'src/features/proxies/components/password-needed.tsx',
    "import { useUser } from '@/features/auth/api/get-user';\n",
  ],
  [
    'another feature, by a relative path',
    'src/features/proxies/components/edit-server-choice.tsx',
    "import { useSshServers } from '../../servers/api/ssh-servers';\n",
  ],
  [
    'a feature, from lib/',
    'src/lib/session.ts',
    "import { useUser } from '@/features/auth/api/get-user';\n",
  ],
  [
    'a feature, from components/',
    'src/components/app-shell.tsx',
    "import { Wizard } from '../features/wizard/components/step';\n",
  ],
  [
    'a shared test fixture, from product code',
    'src/features/servers/components/server-page.tsx',
    "import { HEALTHY_DEBIAN_FACTS } from '@portico/shared/test/server-facts';\n",
  ],
];

describe('web import boundaries', () => {
  it('passes imports where they belong', () => {
    expect(checkWebImports(tree(WEB_ALLOWED))).toEqual([]);
  });

  it.each(WEB_PLANTED)('fails an import of %s, naming the file', (_what, file, text) => {
    expectOnlyViolation(checkWebImports, WEB_ALLOWED, file, text);
  });

  it('fails a query key written in two files, naming both', () => {
    const twice = {
      ...WEB_ALLOWED,
      'src/features/wizard/api/destinations.ts':
        "export const destinationServersQueryKey = ['/api/destination-servers'] as const;\n",
    };
    const violations = checkWebImports(tree(twice));
    expect(violations.map((v) => v.file).sort()).toEqual([
      'src/features/wizard/api/destinations.ts',
      'src/lib/query-keys.ts',
    ]);
    expect(violations[0]!.rule).toContain('a query key is written in one file');
  });

  it('fails a loop between files, even of type-only imports, naming every import on it', () => {
    const at = 'src/features/settings/components';
    const open = {
      [`${at}/settings-page.tsx`]: "import { ProfileSection } from './profile-section';\n",
      [`${at}/profile-section.tsx`]: "import { SettingsSection } from './settings-section';\n",
    };
    const closing = {
      [`${at}/settings-section.tsx`]:
        "import type { TSettingsSectionProps } from '@/features/settings/components/settings-page';\n",
    };
    expect(checkWebImports(tree({ ...WEB_ALLOWED, ...open }))).toEqual([]);
    const violations = checkWebImports(tree({ ...WEB_ALLOWED, ...open, ...closing }));
    expect(violations.map((v) => v.file).sort()).toEqual(
      Object.keys({ ...open, ...closing }).sort(),
    );
    expect(violations.every((v) => v.rule.includes('no import cycle between files'))).toBe(true);
  });

  it('makes the lint command fail on the web app too', () => {
    const server = join(REPO_ROOT, 'apps/server');
    const web = tree({ ...WEB_ALLOWED, [WEB_PLANTED[0]![1]]: WEB_PLANTED[0]![2] });
    const run = lint(server, web);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "src/features/proxies/components/password-needed.tsx: imports '@/features/auth/api/get-user': a web feature imports no other feature",
    );
  });

  it('holds for Portico itself', () => {
    expect(checkWebImports(join(REPO_ROOT, 'apps/web'))).toEqual([]);
  });
});
