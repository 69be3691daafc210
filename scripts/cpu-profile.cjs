// A measuring aid: `NODE_OPTIONS=--require=./scripts/cpu-profile.cjs CPU_PROFILE_DIR=/tmp/prof
// npx vitest run <one file>` writes a .cpuprofile per Node process (Vitest's workers included,
// which --cpu-prof misses: they are ended before it writes). Open one in Chrome's DevTools.
const { writeFileSync } = require('node:fs');
const inspector = require('node:inspector');

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // A session in this thread answers synchronously, so this finishes before the process ends.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(`${dir}/${process.pid}.cpuprofile`, JSON.stringify(result.profile));
    });
  };
  process.on('exit', write);
  process.on('SIGTERM', () => {
    write();
    process.exit(143);
  });
}
