// Measures lab start-up and teardown time and memory per server.
//   npx tsx testbed/measure.ts [--runs 3] [--sizes 1,4]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startLab } from './src/lab';
import { labNames } from './src/names';
import { netnsPids } from './src/network';

type TMemory = { rssKb: number; pssKb: number };

function processMemory(pid: number): TMemory {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
    return { rssKb: field('Rss'), pssKb: field('Pss') };
  } catch {
    return { rssKb: 0, pssKb: 0 };
  }
}

async function netnsMemory(netns: string): Promise<TMemory & { processes: number }> {
  const pids = await netnsPids(netns);
  const total = { rssKb: 0, pssKb: 0, processes: pids.length };
  for (const pid of pids) {
    const memory = processMemory(pid);
    total.rssKb += memory.rssKb;
    total.pssKb += memory.pssKb;
  }
  return total;
}

const mb = (kb: number) => (kb / 1024).toFixed(1);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, sizes: { type: 'string', default: '1,4' } },
});
const runs = Number(values.runs);
for (const servers of values.sizes.split(',').map(Number)) {
  const starts: number[] = [];
  const stops: number[] = [];
  let memoryLine = '';
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const lab = await startLab({ servers });
    starts.push(performance.now() - started);
    if (run === runs - 1) {
      const names = labNames(lab.status.id);
      const perServer = await Promise.all(
        lab.status.servers.map((_, i) => netnsMemory(names.server(i + 1).netns)),
      );
      const infra = await netnsMemory(names.infraNetns);
      const avg = (key: 'rssKb' | 'pssKb') =>
        perServer.reduce((sum, m) => sum + m[key], 0) / perServer.length;
      memoryLine = `per server RSS ${mb(avg('rssKb'))} MB, PSS ${mb(avg('pssKb'))} MB (${perServer[0]?.processes} processes); infra (DNS, CA, upstream) RSS ${mb(infra.rssKb)} MB, PSS ${mb(infra.pssKb)} MB`;
    }
    const stopping = performance.now();
    await lab.stop();
    stops.push(performance.now() - stopping);
  }
  const ms = (list: number[]) => list.map((v) => v.toFixed(0)).join(', ');
  console.info(
    `${servers} server(s): start median ${median(starts).toFixed(0)} ms [${ms(starts)}], stop median ${median(stops).toFixed(0)} ms [${ms(stops)}]; ${memoryLine}`,
  );
}
