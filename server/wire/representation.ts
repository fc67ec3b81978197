import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { ErrorDetail } from '../http/errors.js';
import { documentText } from '../storage/document-text.js';
import type { Representation } from '../storage/contract/representation.js';
import type { OwnAddresses } from './addresses.js';
import { MAX_ID_BYTES, readingsOf, selfRefSegment } from '../storage/id-segment.js';
import { contentTypeHeader } from './media.js';

/**
 * Members derived from the id and the configuration: never stored, added to every answer (so a
 * change of PUBLIC_URL or SCHEMA_BASE changes every answer and no stored document), except a
 * UNIS `$schema`, which is kept as sent (see Representations.keptSchema).
 */
const DERIVED = new Set(['$schema', 'selfRef']);
/** Members the server owns; a client's values for them are replaced (docs/rest-interface.md). */
const SERVER_FIELDS = new Set([...DERIVED, 'id', 'ts']);

export interface Incoming {
  /** The body with `ts` and `selfRef` dropped and `$schema` set to ours, or kept (see keptSchema). */
  readonly body: Record<string, unknown>;
  readonly issues: readonly ErrorDetail[];
  /** It named a schema under a base this process does not know (yet); see OwnAddresses.refresh. */
  readonly unknownBase: boolean;
}

/** The kind a `$schema` or `profile` names: a kind, none of ours, or an address we cannot place. */
type SchemaNaming = { readonly kind: KindDescriptor } | { readonly unknownBase: boolean };

/** Own data property even for a key such as `__proto__`: plain assignment would set the prototype. */
export function defineMember(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment for every other key: defineProperty for each member of every POSTed
  // document was 3.4 % of a POST's CPU on the main thread.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * How resources look on the wire: their schema addresses, their `selfRef`, and the server's
 * members. Built from configuration only, never from request headers such as `Host`.
 */
export class Representations {
  private readonly bySlug: ReadonlyMap<string, KindDescriptor>;
  private readonly byCollection: ReadonlyMap<string, KindDescriptor>;
  /** `{"$schema":"…","selfRef":"{base}/<collection>/` per kind: the head of every answer. */
  private readonly heads: ReadonlyMap<KindDescriptor, string>;

  constructor(
    kinds: readonly KindDescriptor[],
    readonly addresses: OwnAddresses,
  ) {
    // The first kind of a slug names it: `/register` holds `service` representations too.
    this.bySlug = new Map([...kinds].reverse().map((k) => [k.slug, k]));
    this.byCollection = new Map(kinds.map((k) => [k.collection, k]));
    this.heads = new Map(kinds.map((k) => [k, `{"$schema":${JSON.stringify(this.schemaAddress(k))},"selfRef":${JSON.stringify(`${addresses.baseUrl}/${k.collection}/`).slice(0, -1)}`]));
  }

  /** `{schema_base}/<kind>#`, the `$schema` and `profile` of a kind. */
  schemaAddress(kind: KindDescriptor): string {
    return `${this.addresses.schemaBase}/${kind.slug}#`;
  }

  /** `{base_url}/<collection>/<id>`, the id as UNIS wrote it (see selfRefSegment). */
  selfRef(kind: KindDescriptor, id: string): string {
    return `${this.addresses.baseUrl}/${kind.collection}/${selfRefSegment(id)}`;
  }

  kindByCollection(collection: string): KindDescriptor | undefined {
    return this.byCollection.get(collection);
  }

  kindBySlug(slug: string): KindDescriptor | undefined {
    return this.bySlug.get(slug);
  }

  /**
   * The kind an address of this service (under any of its bases) names, and the ids its last
   * segment can name, in order of precedence (see readingsOf: the first one stored wins, else the
   * last). A selfRef this service wrote reads first as its resource's id.
   */
  resourceAt(href: string): { readonly kind: KindDescriptor; readonly ids: readonly string[] } | undefined {
    const idStart = href.lastIndexOf('/');
    const collectionStart = href.lastIndexOf('/', idStart - 1);
    if (collectionStart <= 0 || idStart === href.length - 1) return undefined;
    if (!this.addresses.isResourceBase(href.slice(0, collectionStart))) return undefined;
    const kind = this.byCollection.get(href.slice(collectionStart + 1, idStart));
    if (!kind) return undefined;
    return { kind, ids: readingsOf(href.slice(idStart + 1)) };
  }

  /** The kind a schema address names: ours under any of our bases, or UNIS's (docs/rest-interface.md). */
  schemaNaming(address: string): SchemaNaming {
    const plain = address.endsWith('#') ? address.slice(0, -1) : address;
    const slash = plain.lastIndexOf('/');
    const base = plain.slice(0, slash);
    if (slash <= 0 || !this.addresses.isSchemaBase(base)) return { unknownBase: true };
    const kind = this.bySlug.get(plain.slice(slash + 1));
    return kind ? { kind } : { unknownBase: false };
  }

  /** A problem when `address` (a `$schema` or `profile`) does not name `kind`. */
  schemaProblem(kind: KindDescriptor, address: unknown, path: string): (ErrorDetail & { readonly unknownBase: boolean }) | undefined {
    if (typeof address !== 'string') return { path, message: 'must be a string, the schema address of the kind', unknownBase: false };
    const named = this.schemaNaming(address);
    if ('kind' in named) {
      if (named.kind.slug === kind.slug) return undefined;
      return { path, message: `names the ${named.kind.name} schema, but this collection holds ${kind.name} resources`, unknownBase: false };
    }
    return { path, message: `unknown schema; expected ${this.schemaAddress(kind)}`, unknownBase: named.unknownBase };
  }

  /** Check and normalise one incoming resource, then validate it against the kind's schema. */
  incoming(kind: KindDescriptor, value: unknown, pointer: string): Incoming {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { body: {}, issues: [{ path: pointer, message: `must be a ${kind.name} object` }], unknownBase: false };
    }
    const source = value as Record<string, unknown>;
    const issues: ErrorDetail[] = [];
    let unknownBase = false;
    if (source.$schema !== undefined) {
      const problem = this.schemaProblem(kind, source.$schema, `${pointer}/$schema`);
      if (problem) {
        issues.push({ path: problem.path, message: problem.message });
        unknownBase = problem.unknownBase;
      }
    }
    const body: Record<string, unknown> = { $schema: issues.length === 0 ? this.keptSchema(kind, source.$schema) ?? this.schemaAddress(kind) : this.schemaAddress(kind) };
    for (const [key, member] of Object.entries(source)) {
      if (key === '$schema' || key === 'ts' || key === 'selfRef') continue;
      defineMember(body, key, member);
    }
    const result = kind.validate(body);
    if (!result.valid) issues.push(...result.issues.map((i) => ({ path: pointer + i.path, message: i.message })));
    else if (typeof body.id === 'string' && body.id.length * 3 > MAX_ID_BYTES && Buffer.byteLength(body.id) > MAX_ID_BYTES) {
      issues.push({ path: `${pointer}/id`, message: `must be at most ${MAX_ID_BYTES} bytes of UTF-8` });
    }
    return { body, issues, unknownBase };
  }

  /**
   * The `$schema` a document keeps as its client sent it: a UNIS address of `kind` (rest-contract
   * §2, revised 2026-11-26: dlt-web recognises resources by UNIS's own addresses). Ours, an
   * earlier base of ours or anything else is not kept: the answer carries the configured one.
   */
  keptSchema(kind: KindDescriptor, address: unknown): string | undefined {
    if (typeof address !== 'string' || address === this.schemaAddress(kind)) return undefined;
    const named = this.schemaNaming(address);
    if (!('kind' in named) || named.kind !== kind) return undefined;
    const plain = address.endsWith('#') ? address.slice(0, -1) : address;
    return this.addresses.isUnisSchemaBase(plain.slice(0, plain.lastIndexOf('/'))) ? address : undefined;
  }

  /**
   * The document to store: a kept `$schema` (see keptSchema; first, where documentText finds
   * it), `id` and `ts`, then the client's members; nothing derived.
   */
  stored(id: string, ts: number, body: Record<string, unknown>): Record<string, unknown> {
    const named = typeof body.$schema === 'string' ? this.schemaNaming(body.$schema) : undefined;
    const kept = named && 'kind' in named ? this.keptSchema(named.kind, body.$schema) : undefined;
    const document: Record<string, unknown> = kept === undefined ? { id, ts } : { $schema: kept, id, ts };
    for (const [key, member] of Object.entries(body)) if (!SERVER_FIELDS.has(key)) defineMember(document, key, member);
    return document;
  }

  /** The JSON text of a stored representation as clients see it: with `$schema` and `selfRef`. */
  render(kind: KindDescriptor, representation: Representation): string {
    return documentText(this.head(kind), representation.id, representation.doc);
  }

  /** The text every answer of `kind` starts with, up to the id (see documentText). */
  head(kind: KindDescriptor): string {
    return this.heads.get(kind)!;
  }

  /** `Content-Type` values by kind and media type, made once rather than per answer. */
  private readonly contentTypes = new Map<KindDescriptor, Map<string, string>>();

  /** The `Content-Type` of an answer carrying representations of `kind` as `type` (both read paths ask here). */
  contentType(kind: KindDescriptor, type: string): string {
    let byType = this.contentTypes.get(kind);
    if (!byType) this.contentTypes.set(kind, (byType = new Map()));
    let value = byType.get(type);
    if (value === undefined) byType.set(type, (value = contentTypeHeader(type, this.schemaAddress(kind))));
    return value;
  }

  /**
   * A stored document without the members the server sets anew on every write; a kept
   * `$schema` (see keptSchema) stays, so a touch or a patch keeps it.
   */
  withoutVersion(document: unknown): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(document as Record<string, unknown>)) {
      if (key !== 'ts' && key !== 'selfRef') defineMember(copy, key, member);
    }
    return copy;
  }
}
