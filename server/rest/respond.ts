import { createHash } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { project } from '../query/project.js';
import type { ParsedQuery } from '../query/syntax.js';
import type { ChangeEntry, ResourceStore, Selection } from '../storage/resource-store.js';
import type { Representation } from '../storage/contract/representation.js';
import { etagFor, isNotModified, lastModified, listEtagFor, noneMatch } from '../wire/conditional.js';
import { streamArray } from '../wire/json-array.js';
import { Expander } from './expand.js';
import { ExtentsOfFiles } from './extents.js';
import { contentTypeHeader } from '../wire/media.js';
import type { Representations } from '../wire/representation.js';
import { version } from '../version.js';

/** How answers look for one request: the media type, the kind, and what the query asks of them. */
export interface Presentation {
  readonly kind: KindDescriptor;
  /** The response media type (see responseType). */
  readonly type: string;
  readonly query?: ParsedQuery;
  /** Set when the query asks for `expand`: one per request, so each resource is read once. */
  readonly expander?: Expander;
  /** Set when the query asks for `inline` of exnodes (see ExtentsOfFiles). */
  readonly extents?: ExtentsOfFiles;
}

/**
 * Where every REST answer that carries resources is written (Koa's `respond` in small):
 * rendering, projection (`fields=`), expansion (`expand`), a file's extents (`inline`),
 * validators and status.
 */
export class Responder {
  constructor(
    private readonly representations: Representations,
    private readonly store: ResourceStore,
  ) {}

  /** How this request's answers of `kind` look. */
  presentation(kind: KindDescriptor, type: string, query?: ParsedQuery): Presentation {
    return {
      kind,
      type,
      ...(query ? { query } : {}),
      ...(query?.expand ? { expander: new Expander(this.store, this.representations, query.at) } : {}),
      ...(query?.inline && ExtentsOfFiles.applies(kind) ? { extents: new ExtentsOfFiles(this.store, this.representations, query.at) } : {}),
    };
  }

  /** The JSON text of one representation as this request asks for it (a promise only to read more). */
  private text(presentation: Presentation, representation: Representation): string | Promise<string> {
    const text = this.representations.render(presentation.kind, representation);
    const { expander, extents } = presentation;
    const fields = presentation.query?.fields;
    if (expander || extents) return this.completed(presentation, JSON.parse(text)).then((document) => JSON.stringify(fields ? project(document, fields) : document));
    return fields ? JSON.stringify(project(JSON.parse(text), fields)) : text;
  }

  /** A file's extents added (`inline`), then references expanded (`expand`). */
  private async completed({ expander, extents }: Presentation, document: Record<string, unknown>): Promise<unknown> {
    const withExtents = extents ? await extents.complete(document) : document;
    return expander ? expander.expand(withExtents) : withExtents;
  }

  /** One representation, with its ETag and Last-Modified; 304 when the client's copy is current. */
  async one(ctx: RouterContext, presentation: Presentation, representation: Representation, status = 200): Promise<void> {
    const body = await this.text(presentation, representation);
    const { fields } = presentation.query ?? {};
    // A projection is another representation of the same version; an expanded one, or a file
    // with its extents, also depends on other resources, so its tag covers its bytes.
    const variant = presentation.expander || presentation.extents ? createHash('sha256').update(body).digest('base64url').slice(0, 16) : fields ? `${fields.except ? 'neg=' : ''}${fields.paths.map((f) => f.join('.')).join(',')}` : undefined;
    const etag = etagFor(representation.ts, variant);
    const headers = oneHeaders(etag, representation.ts, this.representations.contentType(presentation.kind, presentation.type));
    // ETag and Last-Modified go with a 304 too; Koa drops its Content-Type (an empty status has no body).
    for (let i = 0; i < headers.length; i += 2) ctx.set(headers[i]!, headers[i + 1]!);
    if (status === 200 && (ctx.method === 'GET' || ctx.method === 'HEAD') && isNotModified(ctx, etag, representation.ts)) {
      ctx.status = 304;
      return;
    }
    ctx.status = status;
    ctx.body = body;
  }

  /** Several representations written at once (the answer to a POST of an array). */
  async several(ctx: RouterContext, presentations: readonly Presentation[], representations: readonly Representation[], type: string, status: number): Promise<void> {
    const texts = await Promise.all(representations.map((r, i) => this.text(presentations[i]!, r)));
    ctx.set('Content-Type', contentTypeHeader(type, presentations.length > 0 && presentations.every((p) => p.kind === presentations[0]!.kind) ? this.representations.schemaAddress(presentations[0]!.kind) : undefined));
    ctx.status = status;
    ctx.body = `[${texts.join(',')}]`;
  }

  /**
   * The newest representations of the kind that `selection` selects, streamed. A plain list
   * (no `fields=`, `expand` or a file's extents) comes as runs of JSON texts rendered beside the database (see
   * TextRun): 100,000 nodes are then a few hundred strings on the event loop, not 100,000 objects.
   */
  async current(ctx: RouterContext, presentation: Presentation, selection: Selection): Promise<void> {
    const { kind, query, expander, extents } = presentation;
    const etag = await this.listEtag(ctx, presentation);
    if (etag !== undefined) {
      // Answered from the position alone: not a row is read. The 304 keeps its ETag.
      if (noneMatch(ctx, etag)) {
        ctx.set('ETag', etag);
        ctx.status = 304;
        return;
      }
      await this.store.positions.follow();
    }
    const head = (): void => {
      // Set with the status, so that a query that fails at its first row answers without it.
      if (etag !== undefined) ctx.set('ETag', etag);
      this.head(ctx, presentation, 200);
    };
    if (query?.fields || expander || extents) return this.stream(ctx, presentation, this.store.list(kind.collection, selection), head);
    const runs = this.store.listTexts(kind.collection, selection, { head: this.representations.head(kind) });
    await streamArray(ctx, runs, (run) => run, head);
  }

  /**
   * The ETag of a list of the present (rest-contract §5, added 2026-11-29), read before its rows
   * and never newer than them (ListPositions): the position of the kind in the event log, or of
   * every kind when the answer shows other kinds' resources too (`expand`; `inline` adds the
   * extents of files). None for a list of the past (`at`): an import may add a version to the
   * past without an event (VersionRow.past), so no position says when such a list changed.
   */
  private async listEtag(ctx: RouterContext, presentation: Presentation): Promise<string | undefined> {
    const { kind, query, expander, extents } = presentation;
    if (query?.at !== undefined) return undefined;
    const position = await this.store.positions.of(expander || extents ? undefined : kind.collection);
    return listEtagFor(position, this.listVariant(ctx, presentation));
  }

  /**
   * What else the bytes of a list depend on, besides the stored rows: the collection and the
   * query string as sent (conditions, `fields`, paging, `sort`, `expand`, `inline`: another
   * query is another answer, even over the same rows); the media type chosen from Accept (it
   * names the Content-Type and its profile); the kind's head, which holds the configured base
   * URL (`selfRef`) and schema base (`$schema`), so processes configured otherwise, or one
   * restarted with another PUBLIC_URL, never share a tag; and the server's version, so that a
   * release that renders otherwise never answers 304 to what an older one sent.
   */
  private listVariant(ctx: RouterContext, { kind, type }: Presentation): string {
    return `${ctx.path}?${ctx.querystring}\n${type}\n${this.representations.head(kind)}\n${version}`;
  }

  /**
   * What changed in `(since, until]` (docs/time.md), streamed: one `{id, change, before, after}`
   * per resource, each representation as this request asks (`fields`, `expand` as of its instant).
   */
  async changes(ctx: RouterContext, kind: KindDescriptor, type: string, query: ParsedQuery, since: number, until: number, selection: Selection): Promise<void> {
    const before = this.presentation(kind, type, { ...query, at: since });
    const after = this.presentation(kind, type, { ...query, at: until });
    const side = async (presentation: Presentation, r: Representation | undefined): Promise<string> => (r ? this.text(presentation, r) : 'null');
    await streamArray(
      ctx,
      this.store.changes(kind.collection, since, until, selection),
      async (entry: ChangeEntry) => `{"id":${JSON.stringify(entry.id)},"change":"${entry.change}","before":${await side(before, entry.before)},"after":${await side(after, entry.after)}}`,
      () => {
        // Entries are not representations of the kind: no profile.
        ctx.set('Content-Type', contentTypeHeader(type, undefined));
        ctx.status = 200;
      },
    );
  }

  /** Stream a JSON array; the first row is read before answering so that query errors get a status. */
  async list(ctx: RouterContext, presentation: Presentation, rows: AsyncIterable<Representation>): Promise<void> {
    await this.stream(ctx, presentation, rows, () => this.head(ctx, presentation, 200));
  }

  private async stream(ctx: RouterContext, presentation: Presentation, rows: AsyncIterable<Representation>, head: () => void): Promise<void> {
    await streamArray(ctx, rows, (r) => this.text(presentation, r), head);
  }

  private head(ctx: RouterContext, { kind, type }: Presentation, status: number): void {
    ctx.set('Content-Type', this.representations.contentType(kind, type));
    ctx.status = status;
  }
}

/**
 * The headers of an answer carrying one representation, as name, value, name, value: its
 * validators and its Content-Type. Responder.one and the fast path (operations/hot-read.ts)
 * both write these.
 */
export function oneHeaders(etag: string, ts: number, contentType: string): string[] {
  return ['ETag', etag, 'Last-Modified', lastModified(ts), 'Content-Type', contentType];
}
