/**
 * `npm start [-- --workers N]`: configuration from the environment and the command line, then
 * one server process, or with N > 1 a cluster primary and N workers sharing the port. Whatever
 * can be wrong in the configuration is found before anything listens or forks: exit 2. A start
 * that fails later (a port in use, an unreachable database) says why in one line: exit 1.
 */
import './heap.js';
import cluster from 'node:cluster';
import { runPrimary } from './cluster.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { prepare, serve } from './serve.js';
import { describeStartFailure } from './start-failure.js';
import { TokenConfigError } from './tokens.js';
import { version } from './version.js';
import { runWorker } from './worker.js';

const USAGE = `usage: npm start [-- --workers N | --check-data [--json] | import … | export … | --version | --help]

Serves the REST topology service and the SOAP catalog (default http://127.0.0.1:8080, on the
SQLite file data/topocat.sqlite). Settings come from the environment; the main ones:

  PORT, HOST             where to listen (PORT=0 picks a free port)
  DATABASE_URL           sqlite:<file> or postgres://user:password@host:5432/database
  PUBLIC_URL             the base URL clients see (selfRef, Location)
  TOPOCAT_TOKENS_FILE    bearer tokens (npm run token -- --help); without them the service is open
  CORS_ORIGINS           origins whose browser pages may call the service
  LOG_LEVEL              fatal, error, warn, info, debug, trace or silent

  --workers N            N server processes sharing the port (also WORKERS)
  --check-data           list the stored resources the generated schemas no longer accept, and
                         exit (npm run check-data -- --help)
  import --from <src>    import a UNIS registry, then exit (npm run import -- --help)
  export --to <dir>      export the registry in mongoexport form, then exit (npm run export -- --help)
  --version              the version, e.g. topocat 0.1.0
  --help                 this text

Every setting and its default: README.md, "Configuration".`;

// `npm start -- import …`, `npm start -- export …` (npm run import, npm run export): commands, not a server.
const command =
  process.argv[2] === 'import' ? await import('./unis/import-cli.js').then((m) => m.runImportCommand)
  : process.argv[2] === 'export' ? await import('./unis/export-cli.js').then((m) => m.runExportCommand)
  : undefined;
if (command) {
  const code = await command(process.argv.slice(3));
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}
if (process.argv.includes('--check-data')) {
  const { runCheckData } = await import('./schema-check/cli.js');
  const code = await runCheckData(process.argv.slice(2));
  // Every line handed to stdout is written before the process ends.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
if (process.argv.includes('--version')) {
  console.log(`topocat ${version}`);
  process.exit(0);
}

const config = (() => {
  try {
    return loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
})();
const logger = createLogger(config.logLevel);
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

function failedToStart(error: unknown): void {
  if (error instanceof ConfigError || error instanceof TokenConfigError) {
    logger.fatal(`configuration error: ${error.message}`);
    logger.flush(() => process.exit(2));
    return;
  }
  const reason = describeStartFailure(error, config);
  if (reason !== undefined) {
    console.error(`error: ${reason}`);
    logger.fatal({ code: (error as { code?: unknown }).code }, `could not start: ${reason}`);
  } else {
    console.error(`error: could not start: ${error instanceof Error ? error.message : String(error)} (LOG_LEVEL=debug logs the stack)`);
    logger.fatal(`could not start: ${error instanceof Error ? error.message : String(error)}`);
    logger.debug({ err: error }, 'could not start');
  }
  logger.flush(() => process.exit(1));
}

async function main(): Promise<void> {
  if (cluster.isWorker) return runWorker(config, logger);
  if (config.workers === 1) {
    const server = await serve(config, logger, 'single');
    process.on('SIGTERM', () => server.stop('SIGTERM'));
    process.on('SIGINT', () => server.stop('SIGINT'));
    return;
  }
  runPrimary(config, logger, await prepare(config, logger));
}

main().catch(failedToStart);
