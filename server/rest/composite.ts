import { v7 as timeOrderedId } from 'uuid';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { ErrorDetail } from '../http/errors.js';
import { clientTs } from './request.js';
import { defineMember, type Representations } from '../wire/representation.js';

/** One resource a POST stores: the posted item itself, or a resource embedded in it. */
export interface PlannedResource {
  readonly kind: KindDescriptor;
  /** Where it is in the request body (a JSON pointer), for errors. */
  readonly pointer: string;
  readonly id: string;
  /** True when the client chose the id, so a resource may have it already. */
  readonly clientId: boolean;
  readonly replayedTs?: number;
  /** The body to store, normalised and validated (embedded resources replaced by references). */
  readonly body: Record<string, unknown>;
}

export interface Plan {
  /** Embedded resources first, each item after the resources embedded in it. */
  readonly resources: readonly PlannedResource[];
  /** Positions in `resources` of the posted items, in the order of the request. */
  readonly items: readonly number[];
  readonly issues: readonly ErrorDetail[];
  /** A `$schema` under a base this process does not know (yet). */
  readonly unknownBase: boolean;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `$.<path>[?(@.<field>=="<value>")]`: the JSONPath form UNIS's encoder writes (docs/rest-interface.md). */
const JSON_PATH = /^\$((?:\.[A-Za-z0-9_$@:-]+)+)\[\?\(@((?:\.[A-Za-z0-9_$@:-]+)+)\s*==\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\)\]$/;

function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A POST body as the resources to store (docs/rest-interface.md, composite insert). Reference arrays
 * that the kind's schema marks `x-embed` may hold whole resources instead of references: each
 * becomes a resource of its own kind (its `$schema`'s, else the array's), recursively, and is
 * replaced by a reference to it. `href`s that are JSON Pointers into the posted document
 * (`#/ports/0`) or the JSONPath filter form resolve to the `selfRef` of what they point at.
 * Every resource gets its id here, before anything is stored, so that references can be written;
 * storing them is one transaction.
 */
export class CompositePlanner {
  constructor(private readonly representations: Representations) {}

  plan(kind: KindDescriptor, items: readonly unknown[], pointers: readonly string[]): Plan {
    const resources: PlannedResource[] = [];
    const positions: number[] = [];
    const issues: ErrorDetail[] = [];
    let unknownBase = false;
    items.forEach((item, i) => {
      const planned = new ItemPlan(this.representations, item, pointers[i]!);
      planned.add(kind, item, '');
      const resolved = planned.resolved();
      // An unresolved pointer is the problem at its place, not the format of what is left there.
      issues.push(...planned.issues);
      const unresolved = new Set(planned.issues.map((issue) => issue.path));
      for (const resource of resolved) {
        const incoming = this.representations.incoming(resource.kind, resource.value, resource.pointer);
        issues.push(...incoming.issues.filter((issue) => !unresolved.has(issue.path)));
        unknownBase ||= incoming.unknownBase;
        const replayedTs = isObject(resource.original) ? clientTs(resource.original) : undefined;
        resources.push({
          kind: resource.kind,
          pointer: resource.pointer,
          id: resource.id,
          clientId: resource.clientId,
          ...(replayedTs !== undefined ? { replayedTs } : {}),
          body: incoming.body,
        });
      }
      positions.push(resources.length - 1);
    });
    return { resources, items: positions, issues, unknownBase };
  }
}

interface Found {
  readonly kind: KindDescriptor;
  /** Pointer in the whole request body. */
  readonly pointer: string;
  /** Pointer inside the posted item (the document JSON pointers are evaluated against). */
  readonly local: string;
  readonly id: string;
  readonly clientId: boolean;
  readonly original: unknown;
  value: unknown;
}

/** The resources of one posted item, found depth-first, each after those embedded in it. */
class ItemPlan {
  readonly issues: ErrorDetail[] = [];
  private readonly found: Found[] = [];
  /** selfRef of every resource by its pointer inside the posted item. */
  private readonly selfRefs = new Map<string, string>();

  constructor(
    private readonly representations: Representations,
    private readonly root: unknown,
    private readonly base: string,
  ) {}

  /** Plan `value` (a resource of `kind` at `local`) and what it embeds; returns its selfRef. */
  add(kind: KindDescriptor, value: unknown, local: string): string {
    const clientId = isObject(value) && typeof value.id === 'string';
    // Time-ordered ids: a new resource's keys go to the end of the indexes (docs/dependencies.md).
    const id = clientId ? (value.id as string) : timeOrderedId();
    const selfRef = this.representations.selfRef(kind, id);
    this.selfRefs.set(local, selfRef);
    let copy = value;
    if (isObject(value)) {
      copy = {};
      for (const [key, member] of Object.entries(value)) {
        const embedded = Object.hasOwn(kind.embeds, key) ? this.representations.kindBySlug(kind.embeds[key]!) : undefined;
        defineMember(copy as Json, key, embedded && Array.isArray(member) ? member.map((element, i) => this.embed(embedded, element, `${local}/${escapeToken(key)}/${i}`)) : member);
      }
    }
    this.found.push({ kind, pointer: this.base + local, local, id, clientId, original: value, value: copy });
    return selfRef;
  }

  /** An element of an `x-embed` array: a reference stays one; anything else is a resource. */
  private embed(declared: KindDescriptor, element: unknown, local: string): unknown {
    if (!isObject(element) || Object.hasOwn(element, 'href')) return element;
    const named = typeof element.$schema === 'string' ? this.representations.schemaNaming(element.$schema) : undefined;
    const kind = named && 'kind' in named ? named.kind : declared;
    return { href: this.add(kind, element, local), rel: 'full' };
  }

  /** The planned resources with every pointer `href` replaced by the selfRef it points at. */
  resolved(): Found[] {
    for (const resource of this.found) resource.value = this.resolveHrefs(resource.value, resource.pointer);
    return this.found;
  }

  private resolveHrefs(value: unknown, at: string): unknown {
    if (Array.isArray(value)) return value.map((item, i) => this.resolveHrefs(item, `${at}/${i}`));
    if (!isObject(value)) return value;
    const copy: Json = {};
    for (const [key, member] of Object.entries(value)) {
      const where = `${at}/${escapeToken(key)}`;
      const resolved = key === 'href' && typeof member === 'string' && (member.startsWith('#') || member.startsWith('$')) ? this.target(member, where) : undefined;
      defineMember(copy, key, resolved ?? this.resolveHrefs(member, where));
    }
    return copy;
  }

  /** The selfRef an `href` pointer names, or undefined (and an issue) when it names none. */
  private target(href: string, where: string): string | undefined {
    const local = href.startsWith('#') ? this.fragmentPointer(href) : this.jsonPath(href);
    const selfRef = local === undefined ? undefined : this.selfRefs.get(local);
    if (selfRef === undefined) {
      this.issues.push({ path: where, message: `"${href.slice(0, 200)}" does not point at a resource embedded in this document` });
    }
    return selfRef;
  }

  private fragmentPointer(href: string): string | undefined {
    let pointer: string;
    try {
      pointer = decodeURIComponent(href.slice(1));
    } catch {
      return undefined;
    }
    // UNIS's own test writes `#/ports/0/`.
    return pointer.endsWith('/') ? pointer.slice(0, -1) : pointer;
  }

  private jsonPath(href: string): string | undefined {
    const match = JSON_PATH.exec(href);
    if (!match) return undefined;
    const path = match[1]!.slice(1).split('.');
    const field = match[2]!.slice(1).split('.');
    const wanted = match[3]!.slice(1, -1).replace(/\\(.)/g, '$1');
    let list: unknown = this.root;
    for (const segment of path) list = isObject(list) && Object.hasOwn(list, segment) ? list[segment] : undefined;
    if (!Array.isArray(list)) return undefined;
    const matches = list.flatMap((element, i) => {
      let value: unknown = element;
      for (const segment of field) value = isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
      return value === wanted ? [i] : [];
    });
    // Several matches name no one resource.
    return matches.length === 1 ? `/${path.map(escapeToken).join('/')}/${matches[0]}` : undefined;
  }
}
