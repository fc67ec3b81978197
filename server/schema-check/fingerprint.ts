import { createHash } from 'node:crypto';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { schemaDocuments } from '../../generated/rest/schemas.js';

/** Raised when what the check looks at (scan.ts) changes, so that every database is checked anew. */
const CHECK_VERSION = 1;

/**
 * What the stored data must fit, in 32 hex digits: the generated schema documents (the validators
 * are compiled from the same schemas) and the collections that hold kinds. Another
 * `npm run generate` that changes a field, adds or removes a kind changes it; a rebuild of the
 * same schemas does not.
 */
export function schemaFingerprint(kinds: readonly KindDescriptor[]): string {
  const described = { check: CHECK_VERSION, schemas: schemaDocuments, kinds: kinds.map((k) => [k.collection, k.slug, k.closed]) };
  return createHash('sha256').update(JSON.stringify(described)).digest('hex').slice(0, 32);
}
