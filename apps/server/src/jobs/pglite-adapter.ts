import type { PGlite } from '@electric-sql/pglite';
import type PgBoss from 'pg-boss';

/**
 * pg-boss on PGlite. PGlite refuses several statements in one prepared statement ("cannot insert
 * multiple commands into a prepared statement"), and pg-boss sends its migrations that way: so
 * `query` when there are parameters, `exec` otherwise (rows of every statement merged). A failed
 * multi-statement script would leave its BEGIN open on PGlite's single session: roll it back.
 */
export function pgliteBossDb(pglite: PGlite): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      try {
        if (values.length > 0) {
          const result = await pglite.query(text, values);
          return { rows: result.rows };
        }
        const results = await pglite.exec(text);
        return { rows: results.flatMap((r) => r.rows) };
      } catch (error) {
        if (/\bBEGIN\b/i.test(text)) await pglite.exec('ROLLBACK').catch(() => {});
        throw error;
      }
    },
  };
}
