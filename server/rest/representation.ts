import type { KindDescriptor } from '../../generated/rest/handler.js';
import { canonicalSchemaBase } from '../../generated/rest/kinds.js';
import type { ErrorDetail } from '../http/errors.js';

/** Members the server owns; a client's values for them are replaced (rest-contract §3). */
const SERVER_FIELDS = new Set(['$schema', 'id', 'selfRef', 'ts']);

/** UNIS's schema hosts: clients written for UNIS send these addresses (rest-contract §2). */
const UNIS_BASES = ['unis.incntre.iu.edu', 'unis.crest.iu.edu'].flatMap((host) =>
  ['http', 'https'].map((scheme) => `${scheme}://${host}/schema/${versionOf(canonicalSchemaBase)}`),
);

function versionOf(base: string): string {
  return base.slice(base.lastIndexOf('/') + 1);
}

export interface Incoming {
  /** The body with `ts` and `selfRef` dropped and `$schema` set to ours. */
  readonly body: Record<string, unknown>;
  readonly issues: readonly ErrorDetail[];
}

/** Own data property even for a key such as `__proto__`: plain assignment would set the prototype. */
export function defineMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * How resources look on the wire: their schema addresses, their `selfRef`, and the server's
 * members. Built from configuration only, never from request headers such as `Host`.
 */
export class Representations {
  private readonly bySchema = new Map<string, KindDescriptor>();

  constructor(
    kinds: readonly KindDescriptor[],
    private readonly baseUrl: string,
    private readonly schemaBase: string,
  ) {
    for (const kind of kinds) {
      for (const base of [schemaBase, canonicalSchemaBase, ...UNIS_BASES]) this.bySchema.set(`${base}/${kind.slug}`, kind);
    }
  }

  /** `{schema_base}/<kind>#`, the `$schema` and `profile` of a kind. */
  schemaAddress(kind: KindDescriptor): string {
    return `${this.schemaBase}/${kind.slug}#`;
  }

  selfRef(kind: KindDescriptor, id: string): string {
    return `${this.baseUrl}/${kind.collection}/${encodeURIComponent(id)}`;
  }

  /** A problem when `address` (a `$schema` or `profile`) does not name `kind`. */
  schemaProblem(kind: KindDescriptor, address: unknown, path: string): ErrorDetail | undefined {
    if (typeof address !== 'string') return { path, message: 'must be a string, the schema address of the kind' };
    const named = this.bySchema.get(address.replace(/#$/, ''));
    if (named === kind) return undefined;
    if (named) return { path, message: `names the ${named.name} schema, but this collection holds ${kind.name} resources` };
    return { path, message: `unknown schema; expected ${this.schemaAddress(kind)}` };
  }

  /** Check and normalise one incoming resource, then validate it against the kind's schema. */
  incoming(kind: KindDescriptor, value: unknown, pointer: string): Incoming {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { body: {}, issues: [{ path: pointer, message: `must be a ${kind.name} object` }] };
    }
    const source = value as Record<string, unknown>;
    const issues: ErrorDetail[] = [];
    if (source.$schema !== undefined) {
      const problem = this.schemaProblem(kind, source.$schema, `${pointer}/$schema`);
      if (problem) issues.push(problem);
    }
    const body: Record<string, unknown> = { $schema: this.schemaAddress(kind) };
    for (const [key, member] of Object.entries(source)) {
      if (key === '$schema' || key === 'ts' || key === 'selfRef') continue;
      defineMember(body, key, member);
    }
    const result = kind.validate(body);
    if (!result.valid) issues.push(...result.issues.map((i) => ({ path: pointer + i.path, message: i.message })));
    return { body, issues };
  }

  /** The document to store: the server's members first, then the client's. */
  stored(kind: KindDescriptor, id: string, ts: number, body: Record<string, unknown>): Record<string, unknown> {
    const document: Record<string, unknown> = { $schema: this.schemaAddress(kind), id, selfRef: this.selfRef(kind, id), ts };
    for (const [key, member] of Object.entries(body)) if (!SERVER_FIELDS.has(key)) defineMember(document, key, member);
    return document;
  }

  /** A stored document without the members the server sets anew on every write. */
  withoutVersion(document: unknown): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(document as Record<string, unknown>)) {
      if (key !== 'ts' && key !== 'selfRef') defineMember(copy, key, member);
    }
    return copy;
  }
}
