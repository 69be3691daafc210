/**
 * The npm packages the server's bundle carries instead of leaving them to Node (bundle.ts), and
 * that the tests load as CommonJS (test/support/drizzle-commonjs.ts), for one reason: drizzle-orm
 * is loaded as some 110 ES modules, and for each one Node parses the package's 179 kB
 * package.json again (its `exports`, read to learn the module's format): 2.3 CPU-s of every start
 * of the server and of each CLI command, most of it that parse. Bundled, `portico user list` took
 * 1.1 s instead of 2.6 s here and the server was ready in 2.7 s instead of 3.3. It is pure
 * JavaScript with no files of its own to find at run time.
 */
export const BUNDLED_PACKAGES = /^drizzle-orm(\/|$)/;
