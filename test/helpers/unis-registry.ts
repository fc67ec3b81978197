import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BSON, EJSON, ObjectId } from 'bson';
import { distRoot } from './paths.js';
import { run } from './project.js';
import type { TestDatabase } from './database.js';

/** One collection of a UNIS database as MongoDB holds it: escaped keys, `_id`s. */
export interface StoredCollection {
  readonly name: string;
  readonly capped?: boolean;
  readonly documents: readonly Record<string, unknown>[];
}

/** The forms a UNIS database leaves MongoDB in (rest-contract §14). */
export type SourceForm = 'mongoexport lines, Extended JSON v2 relaxed' | 'mongoexport array, Extended JSON v1 canonical' | 'mongodump BSON';
export const SOURCE_FORMS: readonly SourceForm[] = ['mongoexport lines, Extended JSON v2 relaxed', 'mongoexport array, Extended JSON v1 canonical', 'mongodump BSON'];

/** int64 where MongoDB would keep one (UNIS's µs `ts`); bson writes other whole numbers as int32 or double. */
function withLongs(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => withLongs(v));
  if (value instanceof ObjectId) return value;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withLongs(v, k)]));
  if (key === 'ts' && typeof value === 'number' && Number.isSafeInteger(value)) return BSON.Long.fromNumber(value);
  return value;
}

/** Write `collections` into a new folder in `form`; its path (for mongodump: the dump, holding `unis/`). */
export async function writeSource(form: SourceForm, collections: readonly StoredCollection[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'topocat-unis-'));
  if (form === 'mongodump BSON') {
    const db = path.join(dir, 'unis');
    await mkdir(db);
    for (const c of collections) {
      await writeFile(path.join(db, `${c.name}.bson`), Buffer.concat(c.documents.map((d) => BSON.serialize(withLongs(d) as Record<string, unknown>))));
      await writeFile(path.join(db, `${c.name}.metadata.json`), JSON.stringify({ options: c.capped ? { capped: true, size: 1_000_000 } : {}, indexes: [], collectionName: c.name, type: 'collection' }));
    }
    return dir;
  }
  for (const c of collections) {
    const texts = c.documents.map((d) => (form.includes('v1') ? EJSON.stringify(withLongs(d), { relaxed: false, legacy: true }) : EJSON.stringify(withLongs(d), { relaxed: true })));
    await writeFile(path.join(dir, `${c.name}.json`), form.includes('array') ? `[${texts.join(',\n')}]\n` : `${texts.join('\n')}\n`);
  }
  return dir;
}

export interface CommandOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm start -- import <args>` on `database`, with `PUBLIC_URL`. */
export function importCommand(database: TestDatabase, publicUrl: string, ...args: string[]): Promise<CommandOutcome> {
  return startCommand(database, publicUrl, ['import', ...args]);
}

/** `npm start -- <args>` (a command that runs and exits) on `database`, with `PUBLIC_URL`. */
export async function startCommand(database: TestDatabase, publicUrl: string, args: readonly string[]): Promise<CommandOutcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(distRoot, 'server/main.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, PUBLIC_URL: publicUrl },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The row of the report's table for `collection`: its counts by column. */
export function reportRow(stdout: string, collection: string): Record<'read' | 'imported' | 'skipped' | 'refused' | 'unreadable', number> {
  const line = stdout.split('\n').find((l) => l.split(/\s+/)[0] === collection);
  if (!line) throw new Error(`no row for ${collection} in:\n${stdout}`);
  const cells = line.trim().split(/\s+/);
  const [read, imported, skipped, refused, unreadable] = cells.slice(-5).map((c) => Number(c.replace(/,/g, '')));
  return { read: read!, imported: imported!, skipped: skipped!, refused: refused!, unreadable: unreadable! };
}
