/**
 * `npm run import -- --from <source>` (also `npm start -- import …`): a UNIS registry, with its
 * history and measurements, into this service's database (docs/moving-from-unis.md).
 */
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { describeDatabase } from '../storage/dialects/urls.js';
import { ManifestUpkeep } from '../storage/manifest-upkeep.js';
import { openDatabase } from '../storage/database.js';
import type { Database } from '../storage/contract/database.js';
import { commandOptions, registryOf, startedFrom } from './command.js';
import { runImport } from './import.js';
import { Progress } from './progress.js';
import { refusalLine, reportTable, unreadableLine } from './report.js';
import { mongoDumpFolder } from './sources/mongo-dump.js';
import { mongoExportFolder } from './sources/mongo-export.js';
import type { Source } from './sources/source.js';
import { unisHttp } from './sources/unis-http.js';

const USAGE = `usage: npm run import -- --from <source> [--rebase <old base>]… [--dry-run] [--keep-ttl] [--batch N]
       (or: npm start -- import --from <source> …)

Imports a UNIS registry into the database of DATABASE_URL: every stored version of every
collection with its id and ts, the /events registrations and their data points. Servers may
keep running on the database meanwhile (docs/moving-from-unis.md).

  --from <source>     a running UNIS (http:// or https:// base URL), a folder of mongoexport
                      files (<collection>.json: JSON lines or one array, Extended JSON v1 or v2),
                      or a mongodump folder (<collection>.bson beside .metadata.json)
  --rebase <base>     the old service's base URL: selfRef and every href under it are moved
                      onto PUBLIC_URL (may be given several times; default: the bases the
                      stored selfRefs show)
  --dry-run           read, check and count; write nothing (on a database a server has set up)
  --keep-ttl          register series with the ttl UNIS stored (UNIS never applied it; by
                      default they come in with ttl 0 and keep every point)
  --batch N           versions per transaction (default 2000)
  --help              this text

Prints each document this service's schemas refuse (imported all the same) and each one that
cannot be read, then a table per collection: read, imported, skipped (present already),
refused, unreadable. Repeating an import adds only what is new.

Exit code: 0 when everything could be read, 1 when some documents could not (the rest is
imported), 2 when the import could not run.`;

/** Lines that respect stdout's back-pressure. */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

/** The source `--from` names. */
async function sourceOf(given: string): Promise<Source> {
  if (/^https?:\/\//i.test(given)) return unisHttp(given);
  const from = startedFrom(given);
  const info = await stat(from).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`--from ${given}: neither an http(s):// URL nor a folder`);
  try {
    return await mongoDumpFolder(from);
  } catch (error) {
    if (!/holds no \.bson files/.test((error as Error).message)) throw error;
  }
  return mongoExportFolder(from);
}

/** Run the command with `args` (after `import`); its exit code. */
export async function runImportCommand(args: readonly string[]): Promise<number> {
  const parsed = commandOptions<{ from?: string; rebase?: string[]; 'dry-run'?: boolean; 'keep-ttl'?: boolean; batch?: string }>(
    args,
    { from: { type: 'string' }, rebase: { type: 'string', multiple: true }, 'dry-run': { type: 'boolean' }, 'keep-ttl': { type: 'boolean' }, batch: { type: 'string' } },
    USAGE,
  );
  if ('code' in parsed) return parsed.code;
  const { values } = parsed;
  const batch = values.batch === undefined ? 2000 : Number(values.batch);
  if (values.from === undefined || !Number.isSafeInteger(batch) || batch < 1 || batch > 100_000) {
    console.error(`error: ${values.from === undefined ? '--from is required' : '--batch takes a whole number from 1 to 100000'}\n\n${USAGE}`);
    return 2;
  }
  let database: Database | undefined;
  try {
    const config = loadConfig(process.env);
    const source = await sourceOf(values.from);
    const dryRun = values['dry-run'] === true;
    // A dry run writes nothing, not even the schema: it needs a database a server (or an import) set up.
    database = await openDatabase({ url: config.databaseUrl, poolMax: 4, logger: createLogger('silent'), migrations: dryRun ? 'verify' : 'run' }).catch((error: unknown) => {
      throw dryRun ? new Error(`a dry run writes nothing, not even the database's schema, and ${describeDatabase(config.databaseUrl)} has none yet or an older one (${(error as Error).message.split(';')[0]!}): start a server on it once, or import without --dry-run`) : error;
    });
    const registry = registryOf(database, config);
    if (!dryRun) {
      await registry.addresses.start();
      // As any process that reports to no lookup: no manifests to keep unless a reporting process is alive.
      await new ManifestUpkeep(database, createLogger('silent')).settleUnreported();
    }
    const target = { database, ...registry };
    let fraction: number | undefined;
    const progress = new Progress(process.stderr, () => fraction);
    const lines: string[] = [];
    const report = await runImport(target, {
      source,
      rebase: values.rebase ?? [],
      dryRun,
      keepTtl: values['keep-ttl'] === true,
      batchSize: batch,
      listener: {
        refused: (r) => lines.push(refusalLine(r)),
        unreadable: (u) => lines.push(unreadableLine(u)),
        progress: (counts, share) => {
          fraction = share;
          if (lines.length > 0) progress.clear();
          for (const line of lines.splice(0)) process.stdout.write(`${line}\n`);
          progress.update(counts);
        },
      },
    });
    progress.clear();
    for (const line of lines.splice(0)) await write(`${line}\n`);
    await write(`${lines.length === 0 ? '' : '\n'}${reportTable(report)}`);
    console.error(dryRun ? `nothing was written to ${describeDatabase(config.databaseUrl)} (a dry run)` : `imported into ${describeDatabase(config.databaseUrl)}`);
    return report.collections.some((c) => c.unreadable > 0) ? 1 : 0;
  } catch (error) {
    const reason = error instanceof ConfigError ? `configuration error: ${error.message}` : `the import could not run: ${error instanceof Error ? error.message : String(error)}`;
    console.error(`error: ${reason}`);
    return 2;
  } finally {
    await database?.close();
  }
}
