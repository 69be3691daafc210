import { defineProject } from 'vitest/config';
import { ISOLATED_WEB_FILES, webProject } from './vitest.config.ts';

// The web files that need a module registry of their own (see ISOLATED_WEB_FILES).
export default defineProject({
  ...webProject,
  test: { ...webProject.test, name: 'web-isolated', include: ISOLATED_WEB_FILES },
});
