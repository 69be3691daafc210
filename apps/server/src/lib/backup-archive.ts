import {
  type CipherGCM,
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
} from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import {
  derivePassphraseKey,
  PASSPHRASE_SCRYPT,
  passphraseCheck,
  passphraseMatches,
} from './passphrase-key';

/**
 * The one file `portico backup` writes:
 *
 *   PORTICO-BACKUP 1\n
 *   <header: one line of JSON>\n
 *   <body: JSON lines, gzipped, then with a passphrase AES-256-GCM under a scrypt key>
 *
 * The header names the schema version, the body's length and a SHA-256 over the header (its
 * other fields) and the body, so a truncated file, a flipped byte anywhere and a wrong
 * passphrase are each told apart before anything is restored.
 */

export const BACKUP_MAGIC = 'PORTICO-BACKUP 1';

const SCRYPT = PASSPHRASE_SCRYPT;
const PASSPHRASE_CHECK = 'portico-backup-passphrase-check';

export interface TBackupSchema {
  /** How many migrations the database had applied. */
  migrations: number;
  /** The last one's hash (drizzle's: a SHA-256 of its SQL). */
  lastHash: string;
}

interface TEncryption {
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  iv: string;
  tag: string;
  /** An HMAC under the derived key: a wrong passphrase is named as such, not as damage. */
  check: string;
}

export interface TBackupHeader {
  createdAt: string;
  database: 'pglite' | 'postgres';
  schema: TBackupSchema;
  tables: Record<string, number>;
  bodyBytes: number;
  encryption: TEncryption | null;
  sha256: string;
}

/** One line of the body. */
export type TBackupRecord =
  | { file: 'secret.key' | 'session.secret'; base64: string }
  | { table: string; rows: unknown[] };

export type TArchiveProblem =
  | 'not_a_backup'
  | 'truncated'
  | 'corrupted'
  | 'passphrase_needed'
  | 'wrong_passphrase';

export class BackupArchiveError extends Error {
  constructor(
    readonly problem: TArchiveProblem,
    message: string,
  ) {
    super(message);
    this.name = 'BackupArchiveError';
  }
}

function headerDigest(header: Omit<TBackupHeader, 'sha256'>) {
  return createHash('sha256').update(`${JSON.stringify(header)}\n`);
}

function counting(hash: ReturnType<typeof createHash>, count: { bytes: number }) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      count.bytes += chunk.length;
      done(null, chunk);
    },
  });
}

/**
 * Writes the archive to `file` (beside it first, renamed into place when whole): `records` as
 * the body, then the header, which needs the body's length and checksum.
 */
export async function writeBackupArchive(
  file: string,
  meta: Pick<TBackupHeader, 'createdAt' | 'database' | 'schema'>,
  records: AsyncIterable<TBackupRecord>,
  passphrase?: string,
): Promise<TBackupHeader> {
  const bodyFile = `${file}.body.partial`;
  const partial = `${file}.partial`;
  try {
    const tables: Record<string, number> = {};
    const lines = Readable.from(
      (async function* () {
        for await (const record of records) {
          if ('table' in record)
            tables[record.table] = (tables[record.table] ?? 0) + record.rows.length;
          yield `${JSON.stringify(record)}\n`;
        }
      })(),
    );
    let encryption: TEncryption | null = null;
    let cipher: CipherGCM | undefined;
    let key: Buffer | undefined;
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    if (passphrase !== undefined) {
      key = derivePassphraseKey(passphrase, salt, SCRYPT);
      cipher = createCipheriv('aes-256-gcm', key, iv);
    }
    const bodyHash = createHash('sha256');
    const count = { bytes: 0 };
    const out = createWriteStream(bodyFile, { mode: 0o600 });
    await (cipher
      ? pipeline(lines, createGzip(), cipher, counting(bodyHash, count), out)
      : pipeline(lines, createGzip(), counting(bodyHash, count), out));
    if (cipher && key) {
      encryption = {
        kdf: 'scrypt',
        ...SCRYPT,
        salt: salt.toString('base64'),
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        check: passphraseCheck(key, PASSPHRASE_CHECK),
      };
    }
    const unsigned = { ...meta, tables, bodyBytes: count.bytes, encryption };
    // The checksum covers the header's fields and the body: read the body once more for it.
    const digest = headerDigest(unsigned);
    for await (const chunk of createReadStream(bodyFile)) digest.update(chunk as Buffer);
    const header: TBackupHeader = { ...unsigned, sha256: digest.digest('hex') };
    const whole = createWriteStream(partial, { mode: 0o600 });
    whole.write(`${BACKUP_MAGIC}\n${JSON.stringify(header)}\n`);
    await pipeline(createReadStream(bodyFile), whole);
    renameSync(partial, file);
    return header;
  } finally {
    rmSync(bodyFile, { force: true });
    rmSync(partial, { force: true });
  }
}

const HEAD_LIMIT = 64 * 1024;

/** The header and where the body starts; throws BackupArchiveError for anything else. */
export function readBackupHeader(file: string): { header: TBackupHeader; bodyAt: number } {
  const fd = openSync(file, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(HEAD_LIMIT);
    head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_LIMIT, 0));
  } finally {
    closeSync(fd);
  }
  const first = head.indexOf(0x0a);
  if (first === -1 || head.subarray(0, first).toString('utf8') !== BACKUP_MAGIC) {
    throw new BackupArchiveError('not_a_backup', `${file} is not a Portico backup.`);
  }
  const second = head.indexOf(0x0a, first + 1);
  if (second === -1)
    throw new BackupArchiveError('truncated', `${file} is cut short: its header is incomplete.`);
  let header: TBackupHeader;
  try {
    header = JSON.parse(head.subarray(first + 1, second).toString('utf8'));
  } catch {
    throw new BackupArchiveError('corrupted', `${file} is damaged: its header does not read.`);
  }
  if (
    typeof header?.bodyBytes !== 'number' ||
    typeof header.sha256 !== 'string' ||
    !header.schema
  ) {
    throw new BackupArchiveError('corrupted', `${file} is damaged: its header does not read.`);
  }
  return { header, bodyAt: second + 1 };
}

/**
 * Checks the whole archive (length, checksum, passphrase, and that the body decrypts and reads
 * to its end) and returns its header; nothing is restored from an archive that fails here.
 */
export async function verifyBackupArchive(
  file: string,
  passphrase?: string,
): Promise<TBackupHeader> {
  const { header, bodyAt } = readBackupHeader(file);
  const size = statSync(file).size;
  if (size - bodyAt < header.bodyBytes) {
    throw new BackupArchiveError(
      'truncated',
      `${file} is cut short: ${size - bodyAt} of its ${header.bodyBytes} data bytes are there.`,
    );
  }
  const { sha256, ...unsigned } = header;
  const digest = headerDigest(unsigned);
  for await (const chunk of createReadStream(file, { start: bodyAt }))
    digest.update(chunk as Buffer);
  if (size - bodyAt !== header.bodyBytes || digest.digest('hex') !== sha256) {
    throw new BackupArchiveError('corrupted', `${file} is damaged: its checksum does not match.`);
  }
  bodyKey(file, header, passphrase);
  for await (const _ of backupRecords(file, passphrase)) {
    // Read to the end: the GCM tag and gzip's own checksum are checked there.
  }
  return header;
}

function bodyKey(file: string, header: TBackupHeader, passphrase?: string): Buffer | undefined {
  const encryption = header.encryption;
  if (!encryption) return undefined;
  if (passphrase === undefined) {
    throw new BackupArchiveError(
      'passphrase_needed',
      `${file} is encrypted: give its passphrase with --passphrase-file.`,
    );
  }
  const key = derivePassphraseKey(passphrase, Buffer.from(encryption.salt, 'base64'), encryption);
  if (!passphraseMatches(key, PASSPHRASE_CHECK, encryption.check)) {
    throw new BackupArchiveError('wrong_passphrase', `The passphrase does not open ${file}.`);
  }
  return key;
}

/** The body's records in order (after verifyBackupArchive said the file is whole). */
export async function* backupRecords(
  file: string,
  passphrase?: string,
): AsyncGenerator<TBackupRecord> {
  const { header, bodyAt } = readBackupHeader(file);
  const key = bodyKey(file, header, passphrase);
  const body = createReadStream(file, { start: bodyAt });
  const gunzip = createGunzip();
  if (key && header.encryption) {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      key,
      Buffer.from(header.encryption.iv, 'base64'),
    );
    decipher.setAuthTag(Buffer.from(header.encryption.tag, 'base64'));
    body
      .pipe(decipher)
      .on('error', (e) => gunzip.destroy(e))
      .pipe(gunzip);
  } else {
    body.pipe(gunzip);
  }
  body.on('error', (e) => gunzip.destroy(e));
  try {
    for await (const line of createInterface({
      input: gunzip,
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      if (line.length > 0) yield JSON.parse(line) as TBackupRecord;
    }
  } catch (error) {
    if (error instanceof BackupArchiveError) throw error;
    throw new BackupArchiveError('corrupted', `${file} is damaged: its data does not read.`);
  }
}
