// The WebAssembly flags Portico sets at run time hold on the Node the tests run on (the target
// runtime): a function called two million times stays compiled by Liftoff, never TurboFan. Checked
// in a child Node (V8's own test natives, and tier-up made synchronous so the check is not a race);
// the same child without the module's import tiers up, so the check can tell.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FLAGS_MODULE = fileURLToPath(new URL('./wasm-flags.ts', import.meta.url));

// (module (func (export "f") (param i32) (result i32) local.get 0 i32.const 1 i32.add))
const HOT_FUNCTION = `
const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,5,1,1,102,0,0,10,9,1,7,0,32,0,65,1,106,11]);
const { instance } = await WebAssembly.instantiate(bytes);
const f = instance.exports.f;
let x = 0;
for (let i = 0; i < 2e6; i++) x = f(x);
console.log(JSON.stringify({ calls: x, liftoff: %IsLiftoffFunction(f), turbofan: %IsTurboFanFunction(f) }));
`;

function hotFunctionTier(withFlags: boolean): {
  calls: number;
  liftoff: boolean;
  turbofan: boolean;
} {
  const program = `${withFlags ? `await import(${JSON.stringify(FLAGS_MODULE)});` : ''}${HOT_FUNCTION}`;
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--allow-natives-syntax',
      '--wasm-sync-tier-up',
      '--input-type=module',
      '-e',
      program,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe('the WebAssembly flags', () => {
  it('keep a hot function on Liftoff, where without them it is optimised by TurboFan', () => {
    expect(hotFunctionTier(false)).toEqual({ calls: 2_000_000, liftoff: false, turbofan: true });
    expect(hotFunctionTier(true)).toEqual({ calls: 2_000_000, liftoff: true, turbofan: false });
  });
});
