import { getHeapSpaceStatistics } from 'node:v8';
import { endStartUpHeap } from '../../src/lib/start-up-heap';

// Run as a process of its own by start-up-heap.test.ts: prints the young generation's size
// before and after a start-like allocation (everything kept), then after the start has ended.
const youngMiB = () =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size / 2 ** 20;
const kept: unknown[] = [];
const allocateKept = () => {
  for (let i = 0; i < 300_000; i++) kept.push({ i, text: `line ${i}` });
};

const before = youngMiB();
allocateKept();
const duringStart = youngMiB();
endStartUpHeap();
allocateKept();
allocateKept();
process.stdout.write(
  JSON.stringify({ before, duringStart, afterStart: youngMiB(), kept: kept.length }),
);
