// Looking for a secret everywhere it could leak: every encoding a careless line might use, in
// text the tests recorded and in every byte of a directory (the PGlite files, WAL included).
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TWsMessage } from '@portico/shared/proxy/api';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TLab } from '../../../../testbed/src/lab';
import { labNames } from '../../../../testbed/src/names';
import type { TDatabase } from '../../src/db/client';

export interface TNeedle {
  /** e.g. `ssh password (base64, shifted 1)`: says which secret and which encoding leaked. */
  form: string;
  bytes: Buffer;
}

/**
 * base64 of `secret` as it would appear inside a longer base64 text at each of the three byte
 * alignments: the characters that depend only on the secret's own bytes.
 */
function base64Forms(secret: Buffer): { shift: number; text: string }[] {
  const skip = [0, 2, 3];
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), secret])
      .toString('base64')
      .replace(/=+$/, '');
    // The last character may mix the secret with padding bits.
    return { shift, text: encoded.slice(skip[shift], encoded.length - 1) };
  });
}

/** The secret, a distinctive core of it, and every encoding a log, body or file might hold. */
export function needlesFor(name: string, secret: string, core?: string): TNeedle[] {
  const raw = Buffer.from(secret, 'utf8');
  const texts: [string, string][] = [
    ['raw', secret],
    ['JSON string', JSON.stringify(secret).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(secret)],
    ['form-encoded', new URLSearchParams({ v: secret }).toString().slice(2)],
    ['hex', raw.toString('hex')],
  ];
  if (core) texts.push(['random core', core]);
  for (const { shift, text } of base64Forms(raw)) {
    texts.push([`base64, shifted ${shift}`, text]);
    texts.push([`base64url, shifted ${shift}`, text.replace(/\+/g, '-').replace(/\//g, '_')]);
  }
  const needles = texts.map(([form, text]) => ({
    form: `${name} (${form})`,
    bytes: Buffer.from(text, 'utf8'),
  }));
  needles.push({ form: `${name} (UTF-16LE)`, bytes: Buffer.from(secret, 'utf16le') });
  return needles;
}

export interface THit {
  where: string;
  form: string;
}

export function findIn(where: string, data: Buffer | string, needles: TNeedle[]): THit[] {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return needles.filter((n) => buffer.includes(n.bytes)).map((n) => ({ where, form: n.form }));
}

/** Every regular file under `dir`, read whole. Symbolic links are not followed. */
export function scanDirectory(
  dir: string,
  needles: TNeedle[],
): { files: number; bytes: number; hits: THit[] } {
  let files = 0;
  let bytes = 0;
  const hits: THit[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) walk(join(path, entry));
      return;
    }
    if (!stat.isFile()) return;
    const data = readFileSync(path);
    files += 1;
    bytes += data.length;
    hits.push(...findIn(path, data, needles));
  };
  walk(dir);
  return { files, bytes, hits };
}

export interface TRecorded {
  label: string;
  text: string;
}

/**
 * Replaces the global fetch with one that keeps every answer (status, headers, body) the tests'
 * HTTP client receives, as the browser would see it. Returns the function that puts fetch back.
 */
export function recordFetch(into: TRecorded[]): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const body = await response.clone().text();
    const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    into.push({
      label: `${init?.method ?? 'GET'} ${String(input)} -> ${response.status}`,
      text: `${headers}\n\n${body}`,
    });
    return response;
  };
  return () => {
    globalThis.fetch = original;
  };
}

/**
 * What a lab server kept: every file it changed (its overlay upper dirs, read from this machine)
 * scanned for `needles`, and its private tmpfs dirs (/tmp, /root, /home, /run) searched from
 * inside for the `plain` strings. Returns the overlay scan and the tmpfs files that matched.
 */
export async function scanLabServer(
  lab: TLab,
  serverIndex: number,
  needles: TNeedle[],
  plain: string[],
): Promise<{ files: number; hits: THit[]; tmpfsMatches: string }> {
  const upper = join(labNames(lab.status.id).server(serverIndex).dir, 'upper');
  const { files, hits } = scanDirectory(upper, needles);
  const grep = await lab.exec(
    `s${serverIndex}`,
    ['grep', '-rlsF', '-f', '-', '/tmp', '/root', '/home', '/run'],
    `${plain.join('\n')}\n`,
  );
  // grep: 0 found, 1 nothing found, 2 trouble (which must not pass for "nothing found").
  if (grep.code > 1 && grep.stdout === '') throw new Error(`grep failed: ${grep.stderr}`);
  return { files, hits, tmpfsMatches: grep.stdout };
}

/** Every answer, socket message (whole and each line's text), process output and file. */
export function findEverywhere(
  sources: {
    recorded: TRecorded[];
    socketMessages: TWsMessage[];
    outputs: string[];
    dirs: string[];
  },
  needles: TNeedle[],
): { hits: THit[]; files: number } {
  const hits: THit[] = [];
  for (const r of sources.recorded) hits.push(...findIn(`HTTP ${r.label}`, r.text, needles));
  hits.push(...findIn('socket messages', JSON.stringify(sources.socketMessages), needles));
  for (const m of sources.socketMessages) {
    if (m.type === 'deployment_progress')
      hits.push(...findIn('socket line', m.data.message, needles));
  }
  for (const [i, o] of sources.outputs.entries()) {
    hits.push(...findIn(`process output #${i + 1}`, o, needles));
  }
  let files = 0;
  for (const dir of sources.dirs) {
    const scan = scanDirectory(dir, needles);
    hits.push(...scan.hits);
    files += scan.files;
  }
  return { hits, files };
}

/** Every row of every table of the public schema, as text: a table added later is read too. */
export async function everyRow(database: TDatabase): Promise<string> {
  const tables = (
    (await database.db.execute(
      sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { table_name: string }[] }
  ).rows;
  let dump = '';
  for (const { table_name: name } of tables) {
    const rows = (await database.db.execute(sql.raw(`select * from "${name}"`))) as unknown as {
      rows: unknown[];
    };
    dump += `${name}\n${rows.rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
  }
  return dump;
}

/**
 * A closed PGlite data dir holds none of `needles` in any byte (data files and WAL), while it
 * does hold `username` (the positive control: the scan reads what was written).
 */
export function expectDataDirFree(dataDir: string, needles: TNeedle[], username: string): void {
  const scan = scanDirectory(join(dataDir, 'db'), needles);
  expect(scan.files).toBeGreaterThan(100);
  expect(scan.hits).toEqual([]);
  const control = scanDirectory(join(dataDir, 'db'), needlesFor('username', username));
  expect(control.hits.length, 'the files hold the account (positive control)').toBeGreaterThan(0);
}
