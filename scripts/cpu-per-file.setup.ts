import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

// A measuring aid, on only when PORTICO_CPU_LOG names a file: each test file's CPU seconds
// (user+sys of its worker from the moment this setup file loads, plus the children it waited
// for: sshd, nginx, the CLI) as one JSON line, so a tier's cost can be ranked by CPU rather than
// by wall time on a shared machine. PostgreSQL's own work is not in it (another process).
const TICKS_PER_SECOND = 100;

function cpuTicks(): number {
  // /proc/self/stat: fields 14-17 are utime, stime, cutime, cstime (after the ")" of the name).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
}

const start = cpuTicks();
const log = process.env.PORTICO_CPU_LOG!;

// biome-ignore lint/correctness/noEmptyPattern: Vitest reads a hook's first parameter as fixtures and wants a pattern.
afterAll(({}, suite) => {
  const file = suite.file.filepath;
  const cpuSeconds = (cpuTicks() - start) / TICKS_PER_SECOND;
  appendFileSync(log, `${JSON.stringify({ file, cpuSeconds })}\n`);
});
