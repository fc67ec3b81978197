import { GeneratorError, pointerJoin, resolvePointer } from '../errors.js';
import type { JsonSchema, SchemaDocument } from '../load/schemas.js';

/** Where a `$ref` lands: the document it names and the schema at its fragment. */
export interface ResolvedRef {
  readonly document: SchemaDocument;
  readonly pointer: string;
  readonly schema: JsonSchema;
}

/** One `$ref` of a document: the pointer of the object that holds it, and where it lands. */
export interface Reference {
  readonly at: string;
  readonly ref: string;
  readonly target: ResolvedRef;
}

/**
 * Model phase: every `$ref` of every document, resolved once. Only references into the
 * documents of `schemas/` are allowed: the generator never fetches anything, so output cannot
 * depend on the network. Later phases look targets up by the pointer of the object holding
 * the `$ref`; they never resolve anything themselves.
 */
export class References {
  private readonly byHolder = new Map<string, ResolvedRef>();
  private readonly byDocument = new Map<string, readonly Reference[]>();

  constructor(documents: readonly SchemaDocument[]) {
    const byId = new Map(documents.map((d) => [d.id, d]));
    for (const document of documents) {
      const found = refsIn(document.json).map(({ ref, at }): Reference => ({ ref, at, target: resolve(byId, document, ref, `${at}/$ref`) }));
      for (const reference of found) this.byHolder.set(key(document, reference.at), reference.target);
      this.byDocument.set(document.id, found);
    }
  }

  /** The target of the `$ref` held by the object at `at` in `document`. */
  at(document: SchemaDocument, at: string): ResolvedRef {
    const target = this.byHolder.get(key(document, at));
    if (!target) throw new Error(`no $ref at ${document.file}#${at}`);
    return target;
  }

  /** Every `$ref` of a document, in document order. */
  of(document: SchemaDocument): readonly Reference[] {
    return this.byDocument.get(document.id) ?? [];
  }
}

function key(document: SchemaDocument, at: string): string {
  return `${document.id}#${at}`;
}

/** Resolve `ref` written in `from` at `at` (a pointer, for messages). */
function resolve(byId: ReadonlyMap<string, SchemaDocument>, from: SchemaDocument, ref: string, at: string): ResolvedRef {
  let target: URL;
  try {
    target = new URL(ref, from.id);
  } catch {
    throw new GeneratorError(from.file, at, `$ref "${ref}" is not a valid URI reference`);
  }
  const fragment = decodeURIComponent(target.hash.replace(/^#/, ''));
  target.hash = '';
  const document = byId.get(target.href);
  if (!document) {
    throw new GeneratorError(from.file, at, `$ref "${ref}" names ${target.href}, which is not a schema in this project`);
  }
  if (fragment !== '' && !fragment.startsWith('/')) {
    throw new GeneratorError(from.file, at, `$ref "${ref}" uses a plain-name fragment; use a JSON pointer`);
  }
  const schema = resolvePointer(document.json, fragment);
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new GeneratorError(from.file, at, `$ref "${ref}" points at nothing in ${document.file}`);
  }
  return { document, pointer: fragment, schema: schema as JsonSchema };
}

/** Every `$ref` in a document, with the pointer of the object that holds it. */
function refsIn(json: unknown): { ref: string; at: string }[] {
  const found: { ref: string; at: string }[] = [];
  const visit = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, pointerJoin(at, i)));
    } else if (value !== null && typeof value === 'object') {
      for (const [name, child] of Object.entries(value)) {
        if (name === '$ref' && typeof child === 'string') found.push({ ref: child, at });
        else visit(child, pointerJoin(at, name));
      }
    }
  };
  visit(json, '');
  return found;
}
