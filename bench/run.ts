import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Runs every bench/*.bench.ts in turn and prints each figure beside its floor (the same work
 * done by the simplest possible server) and the ratio. It reports; it never asserts a timing.
 */

export interface TFigure {
  label: string;
  value: number;
  floor: number;
  unit: string;
  /** The target, printed after the ratio (e.g. "goal ≤ 110 %"). */
  goal?: string;
}

export interface TBenchmark {
  name: string;
  /** Set when this machine cannot run it: printed as one line instead of figures. */
  unavailable?: string;
  run(): Promise<TFigure[]>;
}

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();

const fmt = (n: number) =>
  Number.isInteger(n) || n >= 100 ? Math.round(n).toString() : n.toFixed(1);

for (const file of files) {
  const { benchmark } = (await import(pathToFileURL(`${here}${file}`).href)) as {
    benchmark: TBenchmark;
  };
  console.info(`\n${benchmark.name}`);
  if (benchmark.unavailable) {
    console.info(`  ${benchmark.unavailable}`);
    continue;
  }
  const figures = await benchmark.run();
  for (const f of figures) {
    const ratio = f.floor === 0 ? 'n/a' : `${((f.value / f.floor) * 100).toFixed(0)} % of floor`;
    console.info(
      `  ${f.label.padEnd(18)} ${`${fmt(f.value)}${f.unit}`.padStart(10)}   floor ${`${fmt(f.floor)}${f.unit}`.padStart(10)}   ${ratio}${f.goal ? `   (${f.goal})` : ''}`,
    );
  }
}
