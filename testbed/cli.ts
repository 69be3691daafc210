// npm run testbed -- up [--servers N] [--variant V | --variant sN=V1,V2]… | status | point DOMAIN
// SERVER | exec SERVER CMD… | down [--all].  --lab ID picks a lab other than the CLI's lab 0.
import { parseArgs } from 'node:util';
import { sweepStaleLabs, teardownLab } from './src/cleanup';
import { execInServer, labStatus, pointDomain, startLab } from './src/lab';
import { withStartLock } from './src/start-lock';
import { labIdsOnDisk } from './src/state';
import { SERVER_VARIANTS } from './src/types';
import { parseVariants } from './src/variants';

const USAGE = `usage: npm run testbed -- <command>
  up [--servers N] [--variant V]… [--variant sN=V1,V2]…   start a lab (removes a previous one);
                                                           it stays until down
  status                                                   print the lab as JSON
  point DOMAIN SERVER                                      answer DOMAIN with SERVER's address
  exec SERVER -- CMD [ARG]…                                run a command inside a server
  down [--all]                                             remove the lab (--all: every lab)
  options: --lab ID (default 0)   variants: ${SERVER_VARIANTS.join(', ')}`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      servers: { type: 'string', default: '1' },
      variant: { type: 'string', multiple: true, default: [] },
      lab: { type: 'string', default: '0' },
      all: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  const id = Number(values.lab);
  if (values.help || !command) {
    console.info(USAGE);
    return command || values.help ? 0 : 2;
  }
  if (process.getuid?.() !== 0) throw new Error('the lab needs root (network namespaces, mounts)');
  switch (command) {
    case 'up': {
      const started = Date.now();
      const lab = await startLab({
        id,
        servers: Number(values.servers),
        variants: parseVariants(values.variant),
        // The CLI process ends at once: the lab must outlive it until `down`.
        byHand: true,
      });
      const names = lab.status.servers.map((s) => `${s.name} ${s.address}`).join(', ');
      console.info(`lab ${id} up in ${Date.now() - started} ms: ${names}`);
      console.info('run `npm run testbed -- status` for addresses, passwords and domains');
      return 0;
    }
    case 'status': {
      const status = labStatus(id);
      if (!status) throw new Error(`lab ${id} is not running`);
      process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return 0;
    }
    case 'point': {
      const [domain, server] = rest;
      if (!domain || !server) throw new Error('usage: point DOMAIN SERVER');
      const status = await pointDomain(id, domain, server);
      console.info(`${domain} -> ${status.domains[domain]}`);
      return 0;
    }
    case 'exec': {
      const [server, ...argv] = rest;
      if (!server || argv.length === 0) throw new Error('usage: exec SERVER -- CMD [ARG]…');
      const result = await execInServer(server, argv, { lab: id });
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      return result.code;
    }
    case 'down': {
      const ids = values.all ? [...new Set([0, ...labIdsOnDisk()])] : [id];
      for (const labId of ids) await teardownLab(labId);
      if (values.all) await withStartLock(sweepStaleLabs);
      console.info(`lab ${ids.join(', ')} down`);
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`testbed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
