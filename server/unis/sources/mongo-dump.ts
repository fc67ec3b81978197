import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { BSON, EJSON, onDemand } from 'bson';
import { nestedTooDeep } from '../../wire/body.js';
import { FileShare, reason, type Source, type SourceCollection, type SourceItem } from './source.js';

/** A BSON document's size is its first four bytes (little-endian int32), at least 5. */
const MIN_DOCUMENT = 5;
/** MongoDB's limit on one document (16 MiB), with room: anything larger is a broken file. */
const MAX_DOCUMENT = 48 * 1024 * 1024;
/** BSON's element types that nest: an embedded document and an array. */
const BSON_DOCUMENT = 0x03;
const BSON_ARRAY = 0x04;

/**
 * A `mongodump` folder: `<collection>.bson` files (`.bson.gz` with `--gzip`), each beside its
 * `<collection>.metadata.json` (whose `options.capped` says whether UNIS made it a capped
 * collection, as it does for each series' points). The folder given may be the dump itself
 * (`dump/`, with one folder per database) or one database's folder (`dump/unis/`).
 */
export async function mongoDumpFolder(folder: string, maxDepth: number): Promise<Source> {
  let where = folder;
  let entries = await readdir(where, { withFileTypes: true });
  if (!entries.some((e) => e.isFile() && isBson(e.name))) {
    const databases: string[] = [];
    for (const e of entries.filter((d) => d.isDirectory())) {
      if ((await readdir(path.join(folder, e.name))).some(isBson)) databases.push(e.name);
    }
    if (databases.length !== 1) {
      throw new Error(databases.length === 0 ? `${folder} holds no .bson files` : `${folder} holds several databases (${databases.join(', ')}): name the folder of the UNIS one`);
    }
    where = path.join(folder, databases[0]!);
    entries = await readdir(where, { withFileTypes: true });
  }
  const collections: SourceCollection[] = [];
  for (const e of entries.filter((d) => d.isFile() && isBson(d.name)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const name = e.name.replace(/\.bson(\.gz)?$/, '');
    const file = path.join(where, e.name);
    const share = new FileShare((await stat(file)).size);
    collections.push({ name, capped: await capped(path.join(where, `${name}.metadata.json`)), items: () => dumpedDocuments(file, share, maxDepth), fraction: () => share.fraction() });
  }
  return { description: `mongodump folder ${where}`, collections: async () => collections };
}

function isBson(name: string): boolean {
  return name.endsWith('.bson') || name.endsWith('.bson.gz');
}

/** Whether the metadata file (if any) says the collection is capped. */
async function capped(file: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return false;
  }
  try {
    const metadata = EJSON.parse(text, { relaxed: true }) as { options?: { capped?: unknown } };
    return metadata.options?.capped === true;
  } catch {
    return false;
  }
}

/** The documents of a `.bson` file, one after another as the file streams. */
async function* dumpedDocuments(file: string, share: FileShare, maxDepth: number): AsyncIterable<SourceItem> {
  const name = path.basename(file);
  const raw = createReadStream(file);
  raw.on('data', () => (share.read = raw.bytesRead));
  const stream = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  let pending: Buffer = Buffer.alloc(0);
  /** Byte offset of `pending` in the file. */
  let offset = 0;
  let number = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    while (pending.length - at >= 4) {
      const size = pending.readInt32LE(at);
      if (size < MIN_DOCUMENT || size > MAX_DOCUMENT) {
        yield { place: `${name} document ${number + 1} (byte ${offset + at})`, error: `a document size of ${size} bytes; the rest of the file was not read` };
        stream.destroy();
        return;
      }
      if (pending.length - at < size) break;
      number++;
      const place = `${name} document ${number} (byte ${offset + at})`;
      const bytes = pending.subarray(at, at + size);
      const problem = nestingProblem(bytes, maxDepth);
      if (problem !== undefined) {
        yield { place, error: problem };
      } else {
        try {
          yield { place, document: BSON.deserialize(bytes, { promoteLongs: true, promoteValues: true }) };
        } catch (error) {
          yield { place, error: reason(error) };
        }
      }
      at += size;
    }
    offset += at;
    pending = pending.subarray(at);
  }
  if (pending.length > 0) yield { place: `${name} byte ${offset}`, error: `the file ends inside a document (${pending.length} bytes left)` };
}

/**
 * Whether a BSON document is nested deeper than `maxDepth` (the limit of a JSON body, counted the
 * same way: the document is level 1, each document or array in it one more), told as a JSON text
 * that deep is (wire/body.ts). Looked at before the document is deserialized, level by level
 * with the `bson` package's own element reader and no recursion: `BSON.deserialize` recurses, and
 * overflowed the stack on a document 2,000 levels deep (bson 6.10, node 20). A document whose
 * elements cannot be read is left to `deserialize`, which says what is wrong with it.
 */
function nestingProblem(document: Uint8Array, maxDepth: number): string | undefined {
  const pending: { offset: number; depth: number }[] = [{ offset: 0, depth: 1 }];
  try {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const [type, , , offset] of onDemand.parseToElements(document, next.offset)) {
        if (type !== BSON_DOCUMENT && type !== BSON_ARRAY) continue;
        if (next.depth + 1 > maxDepth) return nestedTooDeep(maxDepth);
        pending.push({ offset, depth: next.depth + 1 });
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}
