import { execFile } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';

/**
 * PGlite runs PostgreSQL inside this process, so its buffer pool is this process's memory, taken
 * whole at start. PostgreSQL's default (128 MB) would be half of Portico's resident memory; 16 MB
 * holds Portico's working set many times over (100 users with 1,000 proxies and their logs are a
 * few MB). Figures: docs/PERFORMANCE.md, "Memory and the reads".
 *
 * `portico.answer_versions=off`: the triggers that keep `answer_versions` (migration 0009) serve
 * instances on PostgreSQL; PGlite's one process counts its own writes instead
 * (db/write-count.ts), and each trigger would double the cost of a log line's insert.
 */
const OWN_START_PARAMS = ['-c', 'shared_buffers=16MB', '-c', 'portico.answer_versions=off'];

/**
 * PGlite, loaded when the embedded database is opened: an instance on PostgreSQL never holds
 * the package (about 6 MiB resident).
 */
export function loadPglite() {
  return import('@electric-sql/pglite');
}

/** PGlite's own start parameters with Portico's, for the class `loadPglite` gave. */
export function pgliteStartParams(PGlite: { defaultStartParams: readonly string[] }): string[] {
  return [...PGlite.defaultStartParams, ...OWN_START_PARAMS];
}

/** Whether `dir` holds no database yet (PostgreSQL writes PG_VERSION into every data dir). */
export function isNewPgliteDir(dir: string): boolean {
  return !existsSync(join(dir, 'PG_VERSION'));
}

/** Writes the dump a new data dir starts from: initdb's output, as PGlite dumps it (tar.gz). */
export async function writeEmptyDump(file: string): Promise<void> {
  const { PGlite } = await loadPglite();
  const empty = await PGlite.create({ startParams: pgliteStartParams(PGlite) });
  try {
    const dump = await empty.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await empty.close();
  }
}

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/**
 * Unpacks the dump into `dir` as it streams (ustar: directories and regular files only), so the
 * 38 MB it holds never sit in memory at once. PGlite can load a dump itself, but it unpacks it in
 * memory, and this process would keep ~100 MB of that for its whole life.
 */
async function unpackDump(file: string, dir: string): Promise<void> {
  const root = resolve(dir);
  let buffered: Buffer = Buffer.alloc(0);
  let fd: number | null = null;
  let left = 0; // bytes of the current file still to write
  let skip = 0; // padding after it, up to the next 512-byte block
  let ended = false;
  for await (const chunk of createReadStream(file).pipe(createGunzip())) {
    buffered = buffered.length > 0 ? Buffer.concat([buffered, chunk as Buffer]) : (chunk as Buffer);
    let at = 0;
    while (!ended) {
      if (left > 0 || skip > 0) {
        const n = Math.min(left > 0 ? left : skip, buffered.length - at);
        if (n === 0) break;
        if (left > 0) {
          writeSync(fd!, buffered, at, n);
          left -= n;
          if (left === 0) closeSync(fd!);
        } else {
          skip -= n;
        }
        at += n;
        continue;
      }
      if (buffered.length - at < BLOCK) break;
      const header = buffered.subarray(at, at + BLOCK);
      at += BLOCK;
      if (header.every((b) => b === 0)) {
        ended = true;
        break;
      }
      const path = resolve(root, `.${sep}${field(header, 0, 100)}`);
      if (path !== root && !path.startsWith(root + sep)) throw new Error(`${file}: bad entry`);
      const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
      const type = String.fromCharCode(header[156]!);
      if (type === '5') {
        mkdirSync(path, { recursive: true, mode: 0o700 });
      } else if (type === '0' || type === '\0') {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        fd = openSync(path, 'w', 0o600);
        left = size;
        skip = (BLOCK - (size % BLOCK)) % BLOCK;
        if (size === 0) closeSync(fd);
      } else {
        throw new Error(`${file}: unexpected entry type "${type}"`);
      }
    }
    buffered = buffered.subarray(at);
  }
  if (!ended || left > 0) throw new Error(`${file} ended early`);
}

const execFileAsync = promisify(execFile);

/**
 * Without a dump, initdb runs in a child process: PGlite runs initdb in a second WebAssembly
 * instance beside the first, and the memory both take (~700 MB) would stay with this process for
 * its whole life. The child exits and gives it back.
 */
async function initdbInChild(dir: string): Promise<void> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(process.argv[1]);
PGlite.create({ dataDir: process.argv[2], startParams: JSON.parse(process.argv[3]) })
  .then((db) => db.close())
  .catch((error) => { console.error(error); process.exit(1); });`;
  const params = JSON.stringify(pgliteStartParams((await loadPglite()).PGlite));
  await execFileAsync(process.execPath, ['--liftoff-only', '-e', script, entry, dir, params]);
}

/**
 * Makes `dir` a new, empty data dir: from the dump the build writes (a fraction of a second) or,
 * running from source, by initdb (seconds). Built beside it and renamed into place, so a start
 * that dies halfway leaves no half-made database behind, only a `.partial` the next one replaces.
 */
export async function createPgliteDir(dir: string, emptyDump: string | undefined): Promise<void> {
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true, mode: 0o700 });
  if (emptyDump && existsSync(emptyDump)) await unpackDump(emptyDump, partial);
  else await initdbInChild(partial);
  // openStore made `dir` (owner-only) beforehand; it is empty, or the database would exist.
  if (existsSync(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      throw new Error(`${dir} holds files but no database (no PG_VERSION): move it away`);
    }
  }
  renameSync(partial, dir);
}
