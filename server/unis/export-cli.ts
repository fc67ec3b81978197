/**
 * `npm run export -- --to <dir>` (also `npm start -- export …`): the registry, every version, and
 * the measurement series in `mongoexport` form, for `mongoimport` into a UNIS database
 * (docs/moving-from-unis.md, "Export back to UNIS").
 */
import { once } from 'node:events';
import { mkdir, readdir } from 'node:fs/promises';
import { ConfigError, httpBaseUrl, loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { describeDatabase } from '../storage/dialects/urls.js';
import { openDatabase } from '../storage/database.js';
import type { Database } from '../storage/contract/database.js';
import { ServiceFacts } from '../storage/service-facts.js';
import { OwnAddresses } from '../wire/addresses.js';
import { Representations } from '../wire/representation.js';
import { commandOptions, registryOf, startedFrom } from './command.js';
import { exportBases } from './export-base.js';
import { runExport } from './export.js';
import { exportTable, notExportedLine, type ExportCount } from './export-report.js';
import { Rebase } from './rebase.js';

const USAGE = `usage: npm run export -- --to <dir> [--force] [--base <url>]
       (or: npm start -- export --to <dir> …)

Exports the registry in the database of DATABASE_URL as mongoexport files that mongoimport
loads into a UNIS database, one per collection:

  <collection>.json   every stored version of every resource, deletions included (a version
                      marked "\\$status": "DELETED"), in (id, ts) order, as UNIS stores them:
                      _id "<id>:<ts>", keys escaped (\\$schema, $DOT$), selfRef and $schema as
                      this service answers them, under the base the database's hrefs were
                      written with (below)
  events_cache.json   the /events registrations
  <mid>.json          each series' live data points, oldest first

Each file is JSON lines (relaxed Extended JSON v2, as mongoexport writes by default), written
as <name>.json.partial and renamed once complete. Load one with
  mongoimport --db unis_db --collection <collection> --file <dir>/<collection>.json
Importing the folder into an empty topocat (npm run import -- --from <dir>) gives back the
same answers. Servers may keep running meanwhile; what they write during the export may or
may not be in it.

  --to <dir>          the folder to write (made if missing); it must hold no files
  --force             write into a folder that holds files: files of the same names are
                      replaced, others are left as they are
  --base <url>        write every selfRef, and every href into this service, under <url>
                      instead (an explicit rebase, e.g. onto the address UNIS will have)

selfRef is derived from a base, while hrefs are stored as they were written: the export writes
both under the base the database records (each server and each import records its PUBLIC_URL
when it starts), whatever PUBLIC_URL this shell has. A PUBLIC_URL that differs from it is an
error (unset it, or give --base); hrefs under the service's earlier bases are written under the
recorded one too, so an export never mixes two of this service's bases.
  --help              this text

Prints a table: documents written per file, resources and deletions among the versions.

Exit code: 0 when everything was exported, 1 when a series' points could not be (named; a mid
that cannot be a file name), 2 when the export could not run (also: a PUBLIC_URL other than the
recorded base, without --base).`;

/** Lines that respect stdout's back-pressure. */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

/** Why `folder` cannot take the export (made when missing), or undefined. */
async function folderProblem(folder: string, force: boolean): Promise<string | undefined> {
  try {
    await mkdir(folder, { recursive: true });
    const entries = await readdir(folder);
    if (entries.length > 0 && !force) return `--to ${folder} holds files already (${entries.length.toLocaleString('en-US')}); choose an empty folder or add --force`;
  } catch (error) {
    return `--to ${folder}: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}

/** The progress on stderr: one line redrawn on a terminal, a plain line every few seconds elsewhere. */
function progress(): { update(counts: readonly ExportCount[]): void; clear(): void } {
  const terminal = process.stderr.isTTY === true;
  let last = performance.now();
  let drawn = false;
  return {
    update(counts) {
      const now = performance.now();
      if (now - last < (terminal ? 200 : 5_000)) return;
      last = now;
      const current = counts.at(-1);
      if (!current) return;
      const total = counts.reduce((sum, c) => sum + c.written, 0);
      const text = `${current.collection}.json: ${current.written.toLocaleString('en-US')} written; ${total.toLocaleString('en-US')} in all`;
      if (terminal) {
        process.stderr.write(`\r\x1b[K${text}`);
        drawn = true;
      } else {
        process.stderr.write(`${text}\n`);
      }
    },
    clear() {
      if (drawn) process.stderr.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** Run the command with `args` (after `export`); its exit code. */
export async function runExportCommand(args: readonly string[]): Promise<number> {
  const parsed = commandOptions<{ to?: string; force?: boolean; base?: string }>(args, { to: { type: 'string' }, force: { type: 'boolean' }, base: { type: 'string' } }, USAGE);
  if ('code' in parsed) return parsed.code;
  const { values } = parsed;
  if (values.to === undefined || values.to === '') {
    console.error(`error: --to is required\n\n${USAGE}`);
    return 2;
  }
  let base: string | undefined;
  try {
    base = values.base === undefined ? undefined : httpBaseUrl(values.base, '--base');
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  let database: Database | undefined;
  try {
    const config = loadConfig(process.env);
    const folder = startedFrom(values.to);
    const problem = await folderProblem(folder, values.force === true);
    if (problem !== undefined) {
      console.error(`error: ${problem}`);
      return 2;
    }
    database = await openDatabase({ url: config.databaseUrl, poolMax: 4, logger: createLogger('silent') });
    const facts = new ServiceFacts(database);
    const bases = await exportBases(facts, config, base);
    const addresses = new OwnAddresses(facts, bases.resource, bases.schema);
    const { measurements, kinds } = registryOf(database, config);
    const representations = new Representations(kinds, addresses);
    const rebase = bases.movedFrom.length > 0 ? new Rebase(bases.resource, bases.movedFrom, false) : undefined;
    const shown = progress();
    const report = await runExport(
      { database, measurements, representations, kinds, ...(rebase ? { rebase } : {}) },
      {
        folder,
        listener: {
          progress: (counts) => shown.update(counts),
          notExported: (entry) => {
            shown.clear();
            process.stdout.write(`${notExportedLine(entry)}\n`);
          },
        },
      },
    );
    shown.clear();
    await write(`${report.notExported.length === 0 ? '' : '\n'}${exportTable(report)}`);
    console.error(`exported from ${describeDatabase(config.databaseUrl)}: selfRef and hrefs under ${bases.resource} (${bases.chosen})${bases.movedFrom.length > 0 ? `; hrefs under ${bases.movedFrom.join(', ')} (earlier bases of this service) moved onto it` : ''}`);
    return report.notExported.length > 0 ? 1 : 0;
  } catch (error) {
    const reason = error instanceof ConfigError ? `configuration error: ${error.message}` : `the export could not run: ${error instanceof Error ? error.message : String(error)}`;
    console.error(`error: ${reason}`);
    return 2;
  } finally {
    await database?.close();
  }
}
