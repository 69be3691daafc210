import pino from 'pino';
import { batchedLogStream } from '../../src/lib/log-stream';

/**
 * Logs through lib/log-stream.ts to stdout, then ends as `process.argv[2]` says: `throw` (an
 * uncaught error), `exit` (process.exit with lines still waiting), or `stop` (a clean stop).
 */
const stream = batchedLogStream(1);
const log = pino({ base: null }, stream);
for (let i = 0; i < 3; i++) log.info({ i }, 'waiting line');
const how = process.argv[2];
if (how === 'throw') {
  setImmediate(() => {
    throw new Error('the probe fails');
  });
} else if (how === 'exit') {
  process.exit(3);
} else {
  stream.stop();
}
