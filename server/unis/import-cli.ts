/**
 * `npm run import -- --from <source>` (also `npm start -- import …`): a UNIS registry, with its
 * history and measurements, into this service's database (docs/moving-from-unis.md).
 */
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { describeDatabase, scratchDatabaseUrl } from '../storage/dialects/urls.js';
import { ManifestUpkeep } from '../storage/manifest-upkeep.js';
import { openDatabase } from '../storage/database.js';
import { isNewDatabase } from '../storage/new-database.js';
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
  --dry-run           read, check and count; write nothing, not even the schema of a new
                      database (checked as the empty database it is)
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

/**
 * The source `--from` names, its documents checked against `maxDepth` (MAX_JSON_DEPTH). A folder
 * with nothing to import is an error: a mistyped path must not read as an empty registry.
 */
async function sourceOf(given: string, maxDepth: number): Promise<Source> {
  if (/^https?:\/\//i.test(given)) return unisHttp(given, maxDepth);
  const from = startedFrom(given);
  const info = await stat(from).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`--from ${given}: neither an http(s):// URL nor a folder`);
  try {
    return await mongoDumpFolder(from, maxDepth);
  } catch (error) {
    if (!/holds no \.bson files/.test((error as Error).message)) throw error;
  }
  const exported = await mongoExportFolder(from, maxDepth);
  if ((await exported.collections()).length === 0) {
    const entries = await readdir(from);
    const held = entries.length === 0 ? 'it is empty' : `it holds ${entries.length.toLocaleString('en-US')} other ${entries.length === 1 ? 'entry' : 'entries'} (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''})`;
    throw new Error(`--from ${given}: ${from} holds no collection to import: expected <collection>.json files (mongoexport) or <collection>.bson files (mongodump, there or in the one database folder under it); ${held}`);
  }
  return exported;
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
  let standIn: StandIn | undefined;
  try {
    const config = loadConfig(process.env);
    const source = await sourceOf(values.from, config.limits.jsonDepth);
    const dryRun = values['dry-run'] === true;
    const named = describeDatabase(config.databaseUrl);
    if (dryRun && (await isNewDatabase(config.databaseUrl, createLogger('silent')))) {
      // What an operator tries first, on the database the service will get. A dry run writes
      // nothing there, not even the schema: it checks against an empty stand-in, which is what
      // that database holds.
      standIn = await emptyStandIn();
      database = standIn.database;
    } else {
      // A dry run writes nothing, not even a newer schema: a database set up by an older release is left as it is.
      database = await openDatabase({ url: config.databaseUrl, poolMax: 4, logger: createLogger('silent'), migrations: dryRun ? 'verify' : 'run' }).catch((error: unknown) => {
        throw dryRun ? new Error(`a dry run writes nothing, not even the database's schema, and ${named} was set up by another release of topocat (${(error as Error).message.split(';')[0]!}): start this release's server on it once, or import without --dry-run`) : error;
      });
    }
    const registry = registryOf(database, config);
    if (!dryRun) {
      await registry.addresses.start();
      // As any process that reports to no lookup: no manifests to keep unless a reporting process is alive.
      await new ManifestUpkeep(database, createLogger('silent')).settleUnreported();
    }
    const target = registry;
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
    console.error(dryRun ? `nothing was written to ${named} (a dry run${standIn ? '; it is new: checked as the empty database it is, its schema not made' : ''})` : `imported into ${named}`);
    return report.collections.some((c) => c.unreadable > 0) ? 1 : 0;
  } catch (error) {
    const reason = error instanceof ConfigError ? `configuration error: ${error.message}` : `the import could not run: ${error instanceof Error ? error.message : String(error)}`;
    console.error(`error: ${reason}`);
    return 2;
  } finally {
    await database?.close();
    await standIn?.remove();
  }
}

/** An empty database that stands in for a new one during a dry run: its schema, no data, in a scratch folder removed afterwards. */
interface StandIn {
  readonly database: Database;
  remove(): Promise<void>;
}

async function emptyStandIn(): Promise<StandIn> {
  const folder = await mkdtemp(path.join(tmpdir(), 'topocat-dry-run-'));
  try {
    const database = await openDatabase({ url: scratchDatabaseUrl(folder), poolMax: 2, logger: createLogger('silent') });
    return { database, remove: () => rm(folder, { recursive: true, force: true }) };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
