// A minimal SSH client for the lab's own tests: password login, pinned host key, one command.
import { createHash } from 'node:crypto';
import { Client } from 'ssh2';
import type { TExecResult } from '../src/types';

export type TSshTarget = {
  host: string;
  username: string;
  password: string;
  /** `SHA256:…` as ssh-keygen prints it; the connection fails on any other host key. */
  hostKeyFingerprint: string;
};

export function fingerprintOf(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

export function sshExec(target: TSshTarget, command: string, input = ''): Promise<TExecResult> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.on('error', reject);
    client.on('ready', () => {
      client.exec(command, (error, stream) => {
        if (error) {
          client.end();
          reject(error);
          return;
        }
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        stream.on('data', (d: Buffer) => out.push(d));
        stream.stderr.on('data', (d: Buffer) => err.push(d));
        stream.on('close', (code: number | null) => {
          client.end();
          resolve({
            code: code ?? 255,
            stdout: Buffer.concat(out).toString(),
            stderr: Buffer.concat(err).toString(),
          });
        });
        stream.end(input);
      });
    });
    client.connect({
      host: target.host,
      port: 22,
      username: target.username,
      password: target.password,
      readyTimeout: 15_000,
      hostVerifier: (key: Buffer) => fingerprintOf(key) === target.hostKeyFingerprint,
    });
  });
}

/** Runs a script as root through `sudo -S`: the password is the first stdin line, never argv. */
export function sshSudo(target: TSshTarget, script: string): Promise<TExecResult> {
  return sshExec(target, "sudo -S -p '' bash -s", `${target.password}\n${script}`);
}
