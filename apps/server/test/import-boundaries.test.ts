// The import check of `npm run lint` (scripts/check-imports.ts): each rule, broken once in a
// throwaway tree, fails naming the file; the same imports where they belong pass.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImports } from '../../../scripts/check-imports';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A server tree holding these files (path under the tree: content). */
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'portico-imports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const ALLOWED = {
  'src/modules/users/users.repository.ts': "import { eq } from 'drizzle-orm';\n",
  'src/deploy/ssh/connect.ts':
    "import type { Client } from 'ssh2';\nexport const load = () => import('ssh2');\n",
  'src/jobs/queue.ts':
    "import PgBoss from 'pg-boss';\nimport pg from 'pg';\nexport const raw = (d) => d.pglite;\n",
  'src/db/pglite-dir.ts': "export const load = () => import('@electric-sql/pglite');\n",
  'src/db/client.ts':
    "import pg from 'pg';\nimport { sql } from 'drizzle-orm';\nimport type { PGlite } from '@electric-sql/pglite';\n",
  'src/modules/users/users.routes.ts': "import type { TUsersService } from './users.service';\n",
  'src/modules/users/users.service.ts': "import { AppError } from '../../lib/app-error';\n",
  'src/lib/app-error.ts': 'export class AppError {}\n',
  // Tests may look at the database and import test support.
  'src/modules/users/users.test.ts':
    "import { eq } from 'drizzle-orm';\nimport { createTestApp } from '../../../test/support/test-app';\n",
  'test/support/test-app.ts': "import { Client } from 'ssh2';\n",
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
    'a package loaded at first use, at load time',
    'src/modules/notifications/mailer.ts',
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
];

describe('import boundaries', () => {
  it('passes imports where they belong, in product code and in tests', () => {
    expect(checkImports(tree(ALLOWED))).toEqual([]);
  });

  it.each(PLANTED)('fails an import of %s from the wrong file, naming it', (_what, file, text) => {
    const violations = checkImports(tree({ ...ALLOWED, [file]: text }));
    expect(violations).toHaveLength(1);
    expect(violations[0]!.file).toBe(file);
  });

  it('fails an import cycle between module folders, naming every import on it', () => {
    const loop = {
      'src/modules/account/account.service.ts': "import { u } from '../users/users.service';\n",
      'src/modules/audit/audit.service.ts': "import { a } from '../account/account.service';\n",
    };
    // account -> users -> lib is no loop; closing it through audit is.
    expect(checkImports(tree({ ...ALLOWED, ...loop }))).toEqual([]);
    const closed = {
      ...ALLOWED,
      ...loop,
      'src/modules/users/users.service.ts': "import { r } from '../audit/audit.service';\n",
    };
    const violations = checkImports(tree(closed));
    expect(violations.map((v) => v.file).sort()).toEqual([
      'src/modules/account/account.service.ts',
      'src/modules/audit/audit.service.ts',
      'src/modules/users/users.service.ts',
    ]);
    expect(new Set(violations.map((v) => v.rule)).size).toBe(1);
    expect(violations[0]!.rule).toContain('no import cycle between folders of modules/');
  });

  it('makes the lint command fail, naming the file and the rule', () => {
    const dir = tree({ ...ALLOWED, [PLANTED[0]![1]]: PLANTED[0]![2] });
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'scripts/check-imports.ts'), dir],
      { encoding: 'utf8', cwd: REPO_ROOT },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "src/modules/users/users.service.ts: imports 'drizzle-orm': only *.repository.ts and db/ import drizzle-orm",
    );
  });

  it('holds for Portico itself', () => {
    expect(checkImports(join(REPO_ROOT, 'apps/server'))).toEqual([]);
  });
});
