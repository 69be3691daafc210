import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --name <what>` (run in apps/server) writes a named migration.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
});
