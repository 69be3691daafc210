// Fixture for the crash test: starts a lab owned by this process, prints its number, then waits
// to be killed without any chance to clean up.
import { startLab } from '../src/lab';

const lab = await startLab({ servers: 1 });
process.stdout.write(`${JSON.stringify({ id: lab.status.id })}\n`);
setInterval(() => {}, 60_000);
