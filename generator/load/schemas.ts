import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { GeneratorError } from '../errors.js';
import type { JsonSchema } from '../json-schema.js';
import { PROJECT_KEYWORDS } from '../keywords.js';
import { SERVER_PATHS } from '../model/http.js';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export type { JsonSchema } from '../json-schema.js';

/** One schema file, whether it describes a kind or only shared definitions. */
export interface SchemaDocument {
  /** File name without `.json`; also the last segment of `$id`, e.g. `node`. */
  readonly slug: string;
  /** Path relative to the project root, used in messages and headers. */
  readonly file: string;
  /** The canonical `$id`, `{schema_base}/<slug>`. */
  readonly id: string;
  /** TypeScript name of the document's root type, from `title`. */
  readonly typeName: string;
  readonly json: JsonSchema;
}

const COLLECTION_NAME = /^[a-z][a-z0-9_-]{0,62}$/;
/** Paths the server answers itself (the HTTP contract table); a collection may not shadow them. */
const RESERVED_COLLECTIONS = new Set(SERVER_PATHS.map((p) => p.segment));

/**
 * Load phase: read every `*.json` in the schema directory, check it is a 2020-12 schema with a
 * proper `$id`, and check it against the dialect's meta-schema (the model phase resolves `$ref`s). Errors name the file and JSON pointer.
 */
export async function loadSchemas(projectRoot: string, schemaDir: string): Promise<SchemaDocument[]> {
  const dir = path.resolve(projectRoot, schemaDir);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  if (names.length === 0) throw new GeneratorError(schemaDir, '', 'no *.json schema files found');

  const documents: SchemaDocument[] = [];
  for (const name of names) {
    const file = path.posix.join(schemaDir.split(path.sep).join('/'), name);
    const text = await readFile(path.join(dir, name), 'utf8');
    documents.push(toDocument(file, name.slice(0, -'.json'.length), parseJson(file, text)));
  }
  checkSharedBase(documents);
  checkCollections(documents);
  checkMetaSchema(documents);
  return documents;
}

function parseJson(file: string, text: string): JsonSchema {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GeneratorError(file, '', `not valid JSON: ${locate(text, (error as Error).message)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GeneratorError(file, '', 'a schema file must hold one JSON object');
  }
  return value as JsonSchema;
}

/** Turn V8's "at position N" into a line and column a person can find. */
function locate(text: string, message: string): string {
  const match = /position (\d+)/.exec(message);
  if (!match) return message;
  const offset = Number(match[1]);
  const before = text.slice(0, offset).split('\n');
  return `${message.replace(/ in JSON at position \d+.*$/, '')} at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function toDocument(file: string, slug: string, json: JsonSchema): SchemaDocument {
  if (!/^[a-z][a-z0-9_-]*$/.test(slug)) {
    throw new GeneratorError(file, '', 'file names must be lower-case identifiers (they become URL segments)');
  }
  if (json.$schema !== SCHEMA_DIALECT) {
    throw new GeneratorError(file, '/$schema', `must be "${SCHEMA_DIALECT}" (the project's dialect)`);
  }
  const id = json.$id;
  if (typeof id !== 'string' || !/^https?:\/\//.test(id)) {
    throw new GeneratorError(file, '/$id', 'must be an absolute http(s) URI, {schema_base}/<file name>');
  }
  if (new URL(id).hash !== '' || !id.endsWith(`/${slug}`)) {
    throw new GeneratorError(file, '/$id', `must end with "/${slug}" and carry no fragment`);
  }
  const title = json.title;
  if (typeof title !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(title.replace(/ /g, ''))) {
    throw new GeneratorError(file, '/title', 'must be a name that starts with a capital letter; it names the TypeScript type');
  }
  return { slug, file, id, typeName: title.replace(/ /g, ''), json };
}

function checkSharedBase(documents: readonly SchemaDocument[]): void {
  const base = (d: SchemaDocument): string => d.id.slice(0, d.id.lastIndexOf('/'));
  const first = documents[0]!;
  for (const d of documents) {
    if (base(d) !== base(first)) {
      throw new GeneratorError(d.file, '/$id', `every $id must share one base; ${first.file} uses ${base(first)}`);
    }
  }
}

function checkCollections(documents: readonly SchemaDocument[]): void {
  const seen = new Map<string, string>();
  const typeNames = new Map<string, string>();
  for (const d of documents) {
    const previous = typeNames.get(d.typeName);
    if (previous) throw new GeneratorError(d.file, '/title', `"${d.typeName}" is already the title of ${previous}`);
    typeNames.set(d.typeName, d.file);
    const collection = d.json['x-collection'];
    if (collection === undefined) {
      throw new GeneratorError(d.file, '', 'has no "x-collection": name the collection it is served as ("x-collection": "nodes"), or declare a document of shared definitions only ("x-collection": false)');
    }
    if (collection === false) continue;
    if (typeof collection !== 'string' || !COLLECTION_NAME.test(collection)) {
      throw new GeneratorError(d.file, '/x-collection', 'must be a lower-case URL segment such as "nodes", or false for a document of shared definitions only');
    }
    if (RESERVED_COLLECTIONS.has(collection)) {
      throw new GeneratorError(d.file, '/x-collection', `"${collection}" is a path the server answers itself`);
    }
    if (d.json.type !== 'object') throw new GeneratorError(d.file, '/type', 'a kind (a schema with an x-collection) must say "type": "object"');
    const other = seen.get(collection);
    if (other) throw new GeneratorError(d.file, '/x-collection', `"${collection}" is already the collection of ${other}`);
    seen.set(collection, d.file);
  }
}

function checkMetaSchema(documents: readonly SchemaDocument[]): void {
  const ajv = new Ajv2020({ strict: true, validateFormats: false });
  for (const keyword of PROJECT_KEYWORDS) ajv.addKeyword(keyword);
  for (const d of documents) {
    if (!ajv.validateSchema(d.json)) {
      const [first] = ajv.errors ?? [];
      throw new GeneratorError(d.file, first?.instancePath ?? '', `not a valid 2020-12 schema: ${first?.message ?? 'unknown error'}`);
    }
  }
}
