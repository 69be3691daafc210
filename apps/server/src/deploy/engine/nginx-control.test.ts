// The shell functions every reload and status check runs on the server, run here by bash on
// real processes: a live one, a zombie (a child its parent never waits for), one whose title
// says it is shutting down (as an old nginx worker's does after a reload), and one gone.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderText } from '@portico/shared/i18n/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepError } from './failure';
import { FUNCTIONS, RELOAD_BODY, reportReload } from './nginx-control';
import type { TStepContext } from './step-context';

const started: ChildProcess[] = [];
let dir: string;

/** Starts `bash -c script`; resolves with the lines it printed first (`lines` of them). */
function background(script: string, lines = 0): Promise<{ pid: number; printed: string[] }> {
  const child = spawn('bash', ['--norc', '-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  if (lines === 0) return Promise.resolve({ pid: child.pid!, printed: [] });
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const printed = out.split('\n').filter(Boolean);
      if (printed.length >= lines) resolve({ pid: child.pid!, printed });
    });
  });
}

/** Runs FUNCTIONS then `call` in bash; its exit code and output. */
function call(script: string, env: Record<string, string> = {}) {
  const r = spawnSync('bash', ['--norc', '-c', `${FUNCTIONS}\n${script}`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr };
}

const settle = () => new Promise((r) => setTimeout(r, 600));

let live: number;
let zombie: number;
let zombieParent: number;
let closingWorker: number;
let worker: number;
let gone: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portico-nginx-control-'));
  live = (await background('exec sleep 60')).pid;
  // The child ends once its parent has become a sleep, which never waits for it.
  const z = await background('sleep 0.3 & echo $!; exec sleep 60', 1);
  zombieParent = z.pid;
  zombie = Number(z.printed[0]);
  closingWorker = (await background('exec -a "nginx: worker process is shutting down" sleep 60'))
    .pid;
  worker = (await background('exec -a "nginx: worker process" sleep 60')).pid;
  const ended = spawnSync('bash', ['--norc', '-c', 'sleep 0 & echo $!; wait'], {
    encoding: 'utf8',
  });
  gone = Number(ended.stdout.trim());
  await settle();
});

afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('zombie', () => {
  it('is true only for a process that ended and was not waited for', () => {
    expect(call(`zombie ${zombie}`).code).toBe(0);
    expect(call(`zombie ${live}`).code).toBe(1);
    expect(call(`zombie ${gone}`)).toEqual({ code: 1, out: '', err: '' });
  });
});

describe('closing (an old worker no longer taking connections)', () => {
  it('gone, a zombie, or titled "shutting down": yes; a worker still at work: no', () => {
    expect(call(`closing ${gone}`).code).toBe(0);
    expect(call(`closing ${zombie}`).code).toBe(0);
    expect(call(`closing ${closingWorker}`).code).toBe(0);
    expect(call(`closing ${worker}`)).toEqual({ code: 1, out: '', err: '' });
    expect(call(`closing ${live}`).code).toBe(1);
  });
});

describe('master (the pid file names a live nginx master)', () => {
  const withPidFile = (content: string | null, name: string) => {
    const file = join(dir, name);
    if (content !== null) writeFileSync(file, content);
    return call('master', { portico_pidfile: file });
  };

  it('prints the pid of a live process, with or without the final newline', () => {
    expect(withPidFile(`${live}\n`, 'a.pid')).toEqual({ code: 0, out: String(live), err: '' });
    expect(withPidFile(String(live), 'b.pid')).toEqual({ code: 0, out: String(live), err: '' });
  });

  it('fails, silently, for a zombie, an ended process, an empty file or no file', () => {
    for (const [content, name] of [
      [`${zombie}\n`, 'z.pid'],
      [`${gone}\n`, 'g.pid'],
      ['', 'e.pid'],
      [null, 'missing.pid'],
    ] as const) {
      const r = withPidFile(content, name);
      expect(r, name).toEqual({ code: 1, out: '', err: '' });
    }
  });
});

describe('list_workers', () => {
  it("lists a process's children from the kernel's list", async () => {
    const parent = await background('sleep 60 & echo $!; sleep 60 & echo $!; exec sleep 60', 2);
    await settle();
    const listed = call(`list_workers ${parent.pid}; echo "$portico_workers"`)
      .out.split(/\s+/)
      .map(Number)
      .sort();
    expect(listed).toEqual(parent.printed.map(Number).sort());
    expect(call(`list_workers ${zombieParent}; echo "$portico_workers"`).out).toBe(String(zombie));
  });
});

describe('the reload wait', () => {
  it('ends by the clock, however slow each look is, and says the reload is pending', async () => {
    // A master whose old worker never shuts down, a reload signal that changes nothing, and
    // a server so loaded that each look takes 0.3 s: counted in looks (500 of them), the wait
    // would outlast the engine's 60 s limit on a command.
    const master = await background(
      `trap '' HUP; (exec -a "nginx: worker process" sleep 60) & echo $!; wait`,
      1,
    );
    const bin = join(dir, 'slow-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'nginx'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const started = Date.now();
    const r = spawnSync(
      'bash',
      [
        '--norc',
        '-c',
        `${FUNCTIONS}
running() { return 0; }
unit_active() { return 1; }
master() { echo ${master.pid}; }
pause() { /bin/sleep 0.3; }
portico_reload_wait_s=2
${RELOAD_BODY}`,
      ],
      { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin` }, timeout: 30_000 },
    );
    expect(r.stdout).toContain('PORTICO_RELOAD=pending');
    expect(r.status).toBe(0);
    // The signal's time is told (a stopped reload says how far it got); no new worker came.
    expect(r.stdout).toMatch(/^PORTICO_RELOAD_AT=signalled \d+[.,]\d+$/m);
    expect(r.stdout).not.toContain('PORTICO_RELOAD_AT=fresh');
    // Two seconds of waiting, give or take a look and the second the clock is read in.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('pause', () => {
  it('waits without starting a process (no sleep on the PATH), and falls back to sleep', () => {
    for (const [opened, path] of [
      ['pause_open', '/nonexistent'],
      ['', '/usr/bin:/bin'],
    ] as const) {
      const started = Date.now();
      const r = call(`PATH=${path}\n${opened}\npause 0.3; echo "done $?"`);
      expect(r, opened).toMatchObject({ code: 0, out: 'done 0', err: '' });
      expect(Date.now() - started, opened).toBeGreaterThanOrEqual(300);
    }
  });
});

describe('reportReload', () => {
  it('turns a wait that ran out into the step failure, in both languages, with the error log', () => {
    const c = { log: { info() {} }, server: { systemd: false } } as unknown as TStepContext;
    const stdout = 'PORTICO_RELOAD=pending\n2026/11/29 [alert] worker process 812 exited\n';
    let failure: unknown;
    try {
      reportReload(c, 'https-site', { code: 0, stdout, stderr: '' });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(StepError);
    const { code, step, text } = failure as StepError;
    expect({ code, step }).toEqual({ code: 'nginx_config_invalid', step: 'https-site' });
    for (const [language, words] of [
      ['en', 'old ones were still taking connections'],
      ['es', 'los antiguos seguían aceptando conexiones'],
    ] as const) {
      const shown = renderText(language, text);
      expect(shown).toContain(words);
      expect(shown).toContain('worker process 812 exited');
      expect(shown).not.toContain('PORTICO_RELOAD');
    }
  });
});
