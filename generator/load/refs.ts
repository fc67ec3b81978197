import { GeneratorError, resolvePointer } from '../errors.js';
import type { JsonSchema, SchemaDocument } from '../model/model.js';

/** Where a `$ref` lands: the document it names and the schema at its fragment. */
export interface ResolvedRef {
  readonly document: SchemaDocument;
  readonly pointer: string;
  readonly schema: JsonSchema;
}

/**
 * Resolves `$ref` values between the loaded documents. Only references into the documents of
 * `schemas/` are allowed: the generator never fetches anything, so output cannot depend on the
 * network.
 */
export class RefResolver {
  private readonly byId: Map<string, SchemaDocument>;

  constructor(documents: readonly SchemaDocument[]) {
    this.byId = new Map(documents.map((d) => [d.id, d]));
  }

  /** Resolve `ref` written in `from` at `at` (a pointer, for messages). */
  resolve(from: SchemaDocument, ref: string, at: string): ResolvedRef {
    let target: URL;
    try {
      target = new URL(ref, from.id);
    } catch {
      throw new GeneratorError(from.file, at, `$ref "${ref}" is not a valid URI reference`);
    }
    const fragment = decodeURIComponent(target.hash.replace(/^#/, ''));
    target.hash = '';
    const document = this.byId.get(target.href);
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
  static refsIn(json: unknown, pointer = ''): { ref: string; at: string }[] {
    const found: { ref: string; at: string }[] = [];
    const visit = (value: unknown, at: string): void => {
      if (Array.isArray(value)) {
        value.forEach((item, i) => visit(item, `${at}/${i}`));
      } else if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          const childAt = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
          if (key === '$ref' && typeof child === 'string') found.push({ ref: child, at });
          else visit(child, childAt);
        }
      }
    };
    visit(json, pointer);
    return found;
  }
}
