import type { TestProject } from 'vitest/node';
import { pgliteTemplates, postgresTemplate } from './database-templates';
import { makeTestBundle } from './test-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgliteEmptyTemplate: string;
    postgresTemplate: string | undefined;
  }
}

/**
 * Each test file starts from a database copied from a template made once (database-templates.ts)
 * rather than running initdb and every migration itself.
 */
export default async function setup(project: TestProject) {
  const removeBundle = await makeTestBundle();
  const pglite = await pgliteTemplates();
  project.provide('pgliteTemplate', pglite.migrated);
  project.provide('pgliteEmptyTemplate', pglite.empty);
  project.provide(
    'postgresTemplate',
    process.env.TEST_DATABASE_URL ? await postgresTemplate() : undefined,
  );
  return removeBundle;
}
