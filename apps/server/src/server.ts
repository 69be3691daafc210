import { join } from 'node:path';
import { buildApp, flushLogs } from './app';
import { ConfigError, configWarnings, loadConfig, type TConfig } from './config';
import { DataDirLockedError } from './lib/data-dir-lock';
import { loadOrCreateKey, SecretKeyError } from './lib/secrets';
import { loadOrCreateSessionSecret } from './lib/session-secret';
import { endStartUpHeap } from './lib/start-up-heap';
import { openStore } from './runtime';

/** How long SIGTERM or SIGINT may take at most (docs/OPERATIONS.md; systemd waits 30 s). */
const SHUTDOWN_GRACE_MS = 20_000;

/** Known start-up failures print one readable message; anything else keeps its stack. */
function exitWith(error: unknown): never {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`portico: ${error.message}`);
  } else {
    console.error('portico: start-up failed:', error);
  }
  process.exit(1);
}

async function start(config: TConfig) {
  const startedAt = performance.now();
  const store = await openStore(config);
  const sessionSecret = loadOrCreateSessionSecret(
    join(config.dataDir, 'session.secret'),
    config.sessionSecret,
  );
  const app = await buildApp({
    config,
    database: store.database,
    sessionSecret,
    deploy: {
      workers: config.deployWorkers,
      settings: {
        acmeDirectoryUrl: config.acmeDirectoryUrl,
        acmeProfile: config.acmeProfile,
        ...(config.dnsPropagationSeconds !== undefined
          ? { dnsPropagationSeconds: config.dnsPropagationSeconds }
          : {}),
        ...(config.acmeEab ? { acmeEab: config.acmeEab } : {}),
        extraCaFile: config.extraCaFile,
        dnsServers: config.dnsServers,
        acmeCaBundleOnServer: config.acmeCaBundle,
      },
    },
    destinationProbe: true,
    probeOnSave: true,
  });

  try {
    // Created (0600) on first start, so the operator can back it up before a secret is stored.
    loadOrCreateKey(config.secretKeyFile);
  } catch (error) {
    // Accounts still work without it; stored SSH secrets stay unreadable until it is restored.
    if (!(error instanceof SecretKeyError)) throw error;
    app.log.error(error.message);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Whatever is still running (a request waiting on a server, a run that does not stop), the
    // process ends within the grace; runs left unfinished start again at the next start.
    setTimeout(() => {
      app.log.error(`stopping took longer than ${SHUTDOWN_GRACE_MS / 1000} s; exiting now`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    try {
      await app.close();
    } finally {
      await store.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Whatever ends the process, a lock file naming a dead pid is not left behind if avoidable.
  process.on('exit', () => store.lock?.release());

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      url: `http://${config.host}:${config.port}`,
      database: store.database.kind,
      dataDir: config.dataDir,
      startMs: Math.round(performance.now() - startedAt),
    },
    'Portico is listening',
  );
  for (const warning of configWarnings(config)) app.log.warn(warning);
  flushLogs(app);
  endStartUpHeap();
}

let config: TConfig;
try {
  config = loadConfig();
} catch (error) {
  exitWith(error);
}
start(config).catch(exitWith);
