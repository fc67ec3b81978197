import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { JsonElements } from '../../federation/json-elements.js';
import { documentOfText, FileShare, reason, type Source, type SourceCollection, type SourceItem } from './source.js';

/**
 * A folder of `mongoexport` files, one `<collection>.json` per collection: JSON lines (the
 * default) or one JSON array (`--jsonArray`), in Extended JSON v1 or v2, relaxed or canonical
 * (`{"$numberLong": "…"}`, `{"$oid": "…"}`): each text is read as JSON, and its type wrappers
 * with the `bson` package's EJSON where the document is read (keys.ts, fromMongo). A file is read
 * as it streams, so its size does not matter. A text nested deeper than `maxDepth` is named as
 * unreadable before it is parsed (source.ts, documentOfText).
 */
export async function mongoExportFolder(folder: string, maxDepth: number): Promise<Source> {
  const files = (await readdir(folder, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.json') && !e.name.endsWith('.metadata.json'));
  const collections: SourceCollection[] = [];
  for (const e of files) {
    const file = path.join(folder, e.name);
    const share = new FileShare((await stat(file)).size);
    collections.push({ name: e.name.slice(0, -'.json'.length), capped: false, items: () => exportedDocuments(file, share, maxDepth), fraction: () => share.fraction() });
  }
  return { description: `mongoexport folder ${folder}`, collections: async () => collections.sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

async function* exportedDocuments(file: string, share: FileShare, maxDepth: number): AsyncIterable<SourceItem> {
  const name = path.basename(file);
  const stream = createReadStream(file, { encoding: 'utf8' });
  stream.on('data', () => (share.read = stream.bytesRead));
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  let array: JsonElements | undefined;
  let element = 0;
  for await (const line of lines) {
    number++;
    if (array === undefined && number === 1 && line.trimStart().startsWith('[')) array = new JsonElements();
    if (array !== undefined) {
      let texts: string[];
      try {
        texts = array.push(`${line}\n`);
      } catch (error) {
        // The array's structure is broken: nothing after this point can be placed.
        yield { place: `${name} line ${number}`, error: `${reason(error)}; the rest of the file was not read` };
        lines.close();
        stream.destroy();
        return;
      }
      for (const text of texts) yield documentOfText(text, `${name} element ${++element}`, maxDepth);
      continue;
    }
    if (line.trim() === '') continue;
    yield documentOfText(line, `${name} line ${number}`, maxDepth);
  }
  try {
    array?.end();
  } catch (error) {
    yield { place: `${name} line ${number}`, error: reason(error) };
  }
}
