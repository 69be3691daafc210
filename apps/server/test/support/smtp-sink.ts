import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';

export interface TReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers, blank line, body), dot-stuffing undone. */
  data: string;
  /** The AUTH PLAIN credentials given, if any ("user\0pass"). */
  auth: string | null;
}

export interface TSmtpSink {
  port: number;
  messages: TReceivedMail[];
  /** Resolves once `count` messages arrived (or throws after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<TReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A small SMTP server for tests, speaking the real protocol (RFC 5321: EHLO, AUTH PLAIN, MAIL,
 * RCPT, DATA with dot-stuffing, QUIT) on 127.0.0.1, keeping what it receives. `silent` accepts
 * connections and never greets, to test the sender's deadline.
 */
export async function startSmtpSink(options: { silent?: boolean } = {}): Promise<TSmtpSink> {
  const messages: TReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (options.silent) return;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let inData = false;
    let current: TReceivedMail = { from: '', to: [], data: '', auth: null };
    let auth: string | null = null;
    reply('220 portico-test-sink ESMTP');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push({ ...current, auth });
          current = { from: '', to: [], data: '', auth: null };
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO') {
          reply('250-portico-test-sink');
          reply('250-AUTH PLAIN');
          reply('250 8BITMIME');
        } else if (verb === 'HELO') reply('250 portico-test-sink');
        else if (verb === 'AUTH') {
          const [, , initial] = line.split(' ');
          auth = initial ? Buffer.from(initial, 'base64').toString('utf8').replace(/^\0/, '') : '';
          reply('235 2.7.0 accepted');
        } else if (verb === 'MAIL') {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 2.0.0 ok');
        else reply('502 5.5.2 not implemented');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    port,
    messages,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`SMTP sink: ${messages.length} of ${count} messages arrived`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return messages;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Bytes written as `=XX` (quoted-printable and RFC 2047 Q words), read back as UTF-8. */
function fromHexEscapes(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A header value with its RFC 2047 encoded words decoded (adjacent words joined). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : fromHexEscapes(text.replaceAll('_', ' ')),
    );
}

/** The subject and plain-text body of a received single-part message, as its reader sees them. */
export function readMail(mail: TReceivedMail): { subject: string; text: string } {
  const split = mail.data.indexOf('\r\n\r\n');
  const head = mail.data.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = mail.data.slice(split + 4);
  const header = (name: string) =>
    new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? fromHexEscapes(body.replace(/=\r\n/g, ''))
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { subject: decodeHeader(header('Subject')), text };
}

/** The six-digit code a verification e-mail from Portico carries, read from its subject. */
export function codeInMail(mail: TReceivedMail): string {
  const { subject } = readMail(mail);
  const code = /\b(\d{6})\b/.exec(subject)?.[1];
  if (!code) throw new Error(`no code in the mail: ${subject}`);
  return code;
}
