import pg from 'pg';

/**
 * One statement on the PostgreSQL of TEST_DATABASE_URL (a role allowed to CREATE DATABASE), on
 * its own connection: the suites and the browser tier make and drop their scratch databases
 * with it.
 */
export async function postgresAdminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
