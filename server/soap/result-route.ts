import type { Router } from '@koa/router';
import { Readable } from 'node:stream';
import type { CatalogServiceOperation } from '../../generated/soap/service.js';
import type { ResultStreamStore } from '../storage/catalog/result-streams.js';
import { catalogAccess } from './access.js';
import { SOAP_CHALLENGE } from './endpoint.js';

export interface ResultRouteOptions {
  /** CATALOG_PATH: results are at `{path}/results/{id}`. */
  readonly path: string;
  readonly store: ResultStreamStore;
  /** True when no tokens are configured (soap/access.ts). */
  readonly open: boolean;
  readonly adminDns: readonly string[];
  readonly now: () => number;
}

/**
 * `GET {path}/results/{id}`: a STREAMING result (catalog/result-streams.ts), as
 * `application/xml`, read from the database one stored piece at a time. Only its caller gets it,
 * by the rules of the SOAP call that made it (soap/access.ts): the DN goes in a `Username`
 * HTTP header (open mode), or comes from the bearer token, which needs the operation's scope.
 * Unknown, or another caller's: 404; expired: 410 (and deleted).
 */
export function mountResultRoute(router: Router, { path, store, open, adminDns, now }: ResultRouteOptions): void {
  router.get(`${path}/results/:id`, async (ctx) => {
    const record = await store.record(ctx.params.id!);
    const header = ctx.get('Username').trim();
    // Every operation that streams needs the read scope; an unknown id is checked as a query.
    const access = catalogAccess({
      operation: (record?.operation ?? 'query') as CatalogServiceOperation,
      headerDn: header === '' ? undefined : header,
      open,
      principal: ctx.state.principal,
      credentialProblem: ctx.state.credentialProblem,
      adminDns,
    });
    if (!access.granted) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', SOAP_CHALLENGE);
      ctx.type = 'text/plain';
      ctx.body = `${access.reason}\n`;
      return;
    }
    if (!record || access.dn !== record.ownerDn) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'no such result for this caller (a STREAMING result is fetched with the DN that asked for it)\n';
      return;
    }
    if (record.expiresMs <= now()) {
      await store.delete(record.id);
      ctx.status = 410;
      ctx.type = 'text/plain';
      ctx.body = 'this result has expired (CATALOG_RESULT_TTL_S); run the operation again\n';
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = Readable.from(store.pieces(record));
  });
}
