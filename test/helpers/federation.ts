import { engine, readTestDatabase, type TestDatabase } from './database.js';
import { get } from './http.js';
import type { LogLine, RunningServer } from './server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll `find` (async) until it returns something, or fail naming `what`. */
export async function until<T>(what: string, find: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export interface Registration {
  id: string;
  ts: number;
  accessPoint: string;
  ttl: number;
  communities: string[];
  properties: { summary: { $collection: string; properties: Record<string, unknown[] | '*'> }[]; depth: number };
}

/** The lookup's registration of `accessPoint`, once `accept` holds for it. */
export function registrationOf(lookup: RunningServer, accessPoint: string, accept: (r: Registration) => boolean = () => true): Promise<Registration> {
  return until(`a registration of ${accessPoint} at ${lookup.url}`, async () => {
    const answer = await get<Registration[]>(`${lookup.url}/register?accessPoint=${encodeURIComponent(accessPoint)}`);
    const found = answer.body.find((r) => r.accessPoint === accessPoint);
    return found && accept(found) ? found : undefined;
  });
}

/** The manifest of `collection` in a registration. */
export function manifestOf(registration: Registration, collection: string): Record<string, unknown[] | '*'> | undefined {
  return registration.properties.summary.find((m) => m.$collection === collection)?.properties;
}

/** Log lines of a server with this message. */
export function linesOf(server: RunningServer, msg: string): LogLine[] {
  return server.logs.filter((line) => line.msg === msg);
}

/** What a database holds of the manifests' upkeep, read directly: its value rows, and its triggers on resource_current. */
export function storedManifests(database: TestDatabase): Promise<{ rows: number; triggers: number }> {
  return readTestDatabase(database, async (knex) => {
    const rows = Number(((await knex('manifest_values').count({ n: '*' })) as { n: number | string }[])[0]!.n);
    const triggers =
      engine === 'postgres'
        ? ((await knex.raw("SELECT count(*)::int AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relname = 'resource_current' AND c.relnamespace = current_schema()::regnamespace AND t.tgname LIKE 'manifest_values_kept%'")) as { rows: { n: number }[] }).rows[0]!.n
        : ((await knex.raw("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'resource_current' AND name LIKE 'manifest_values_kept%'")) as { n: number }[])[0]!.n;
    return { rows, triggers };
  });
}
