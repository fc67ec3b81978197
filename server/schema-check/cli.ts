/**
 * `npm run check-data [-- --json]` (also `npm start -- --check-data`): every live resource that
 * the generated schemas no longer accept, with the first reason, so that an operator can fix or
 * delete it after a schema change. Nothing is changed but the record of the check (which the next
 * start then reports). docs/operating.md, "After a schema change".
 */
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { storedKinds } from '../kinds/stored-kinds.js';
import { createLogger } from '../log.js';
import { describeDatabase } from '../storage/dialects/urls.js';
import { openDatabase } from '../storage/database.js';
import type { Database } from '../storage/contract/database.js';
import { ServiceFacts } from '../storage/service-facts.js';
import { schemaFingerprint } from './fingerprint.js';
import { misfits, recordCheck } from './record.js';
import { scanStoredData, type Misfit } from './scan.js';

const USAGE = `usage: npm run check-data [-- --json]    (or: npm start -- --check-data [--json])

Checks every stored resource of the database of DATABASE_URL against the schemas of this build
(after npm run generate and a build) and lists those that no longer fit: a field whose type
changed, a kind whose schema was removed. Nothing is changed or deleted: fix each resource (PUT,
PATCH) or delete it. Servers may keep running meanwhile.

  one line per resource: <collection>/<id> <JSON pointer>: <first validation error>
  --json    one JSON document instead: {"resources": [{collection, kind, id, pointer, message}, ...],
            "checked", "invalid", "removed", "removedKinds", "fingerprint"}
  --help    this text

Exit code: 0 when every resource fits, 1 when some do not, 2 when the check could not run.`;

/** Writes that respect stdout's back-pressure, so a long list is never held in memory. */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

function line(misfit: Misfit): string {
  return `${misfit.collection}/${misfit.id} ${misfit.pointer === '' ? '(document)' : misfit.pointer}: ${misfit.message}\n`;
}

async function check(database: Database, json: boolean): Promise<number> {
  let first = true;
  if (json) await write('{"resources":[');
  const summary = await scanStoredData(database, storedKinds, async (misfit) => {
    if (json) await write(`${first ? '\n' : ',\n'}${JSON.stringify(misfit)}`);
    else await write(line(misfit));
    first = false;
  });
  if (!summary) throw new Error('the scan was interrupted');
  const fingerprint = schemaFingerprint(storedKinds);
  await recordCheck(new ServiceFacts(database), fingerprint, summary);
  const count = misfits(summary);
  if (json) {
    await write(`${first ? '' : '\n'}],${JSON.stringify({ ...summary, fingerprint }).slice(1)}\n`);
  } else {
    const detail = count === 0 ? '' : ` (${summary.invalid} invalid, ${summary.removed} of removed kinds${summary.removedKinds.length > 0 ? `: ${summary.removedKinds.join(', ')}` : ''})`;
    await write(`${count} of ${summary.checked} stored resources do not fit the generated schemas${detail}\n`);
  }
  return count === 0 ? 0 : 1;
}

/** Run the command with `args` (the process's arguments after the script); its exit code. */
export async function runCheckData(args: readonly string[]): Promise<number> {
  let json: boolean;
  try {
    const { values } = parseArgs({ args: [...args], options: { 'check-data': { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    json = values.json === true;
  } catch (error) {
    console.error(`error: ${(error as Error).message.split('\n')[0]!}\n\n${USAGE}`);
    return 2;
  }
  let database: Database;
  let where = '';
  try {
    const config = loadConfig(process.env);
    where = describeDatabase(config.databaseUrl);
    database = await openDatabase({ url: config.databaseUrl, poolMax: 2, logger: createLogger('silent'), migrations: 'verify' });
  } catch (error) {
    const reason = error instanceof ConfigError ? `configuration error: ${error.message}` : `cannot check ${where}: ${error instanceof Error ? error.message : String(error)}`;
    console.error(`error: ${reason}`);
    return 2;
  }
  try {
    return await check(database, json);
  } catch (error) {
    console.error(`error: the check of ${where} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    await database.close();
  }
}
