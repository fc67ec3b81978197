import type { RouterMiddleware } from '@koa/router';
import { ACTION_STATUS } from '../../../generated/rest/contract.js';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { isKeyed } from '../keyed.js';
import { badRequest } from '../../http/errors.js';
import { expectation } from '../../wire/conditional.js';
import { responseType, unisBody } from '../../wire/media.js';
import { defineMember } from '../../wire/representation.js';
import { clientTs, pathId, profileProblem, readWriteBody, requireObject, storageOutcome, withKnownBases } from '../request.js';
import type { OperationContext } from './context.js';

/** Members of a PUT body that carry no data: a body of only these is a touch. */
const NO_DATA = new Set(['id', 'ts', '$schema', 'selfRef']);

/**
 * PUT /<collection>/<id> (docs/rest-interface.md): the body, validated as a whole, becomes the newest
 * representation. A body in UNIS's media type (application/perfsonar+json, or no Content-Type
 * at all: rest-contract §2, revised 2026-11-29; see unisBody) updates instead, as
 * UNIS HEAD's `$set` did (rest-contract §4, revised 2026-11-28): its members are set onto the
 * newest representation, members it does not name are kept, and the result is validated as a
 * whole; BLiPP's registration probe PUTs partial descriptions and expects the rest kept. A body
 * with nothing but `id`, `ts`, `$schema` and `selfRef` is a touch (UNISrt's keep-alive): the
 * newest fields again, under a new ts. Every one is a new version; a `ts` that a stored version
 * has is a replay (409).
 */
export function replace({ store, representations, limits, respond }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      const type = responseType(ctx);
      const id = await pathId(ctx, kind, store);
      const body = requireObject(await readWriteBody(ctx, limits, false), 'a PUT body');
      if (body.id !== undefined && body.id !== id) {
        throw badRequest('the body id differs from the id in the path', [{ path: '/id', message: `must be "${id}" or absent` }]);
      }
      const touch = Object.keys(body).every((key) => NO_DATA.has(key));
      const update = !touch && unisBody(ctx);
      // A keyed kind (/register): the id must be the one the body's key derives, as a POST would
      // (an update's is checked once its members are set; see updated).
      const keyIssue = isKeyed(kind) && !touch && !update ? kind.keyIssue(body, id) : undefined;
      if (keyIssue) throw badRequest('the body\'s key derives another id', [keyIssue]);
      const checked = await withKnownBases(representations, () => {
        const profile = profileProblem(ctx, kind, representations, false);
        // A touch or an update is validated with the newest representation (in the transaction); its $schema now.
        if (touch || update) {
          const problem = body.$schema === undefined ? undefined : representations.schemaProblem(kind, body.$schema, '/$schema');
          return { body, issues: [...profile.issues, ...(problem ? [problem] : [])], unknownBase: profile.unknownBase || problem?.unknownBase === true };
        }
        const incoming = representations.incoming(kind, { ...body, id }, '');
        return { body: incoming.body, issues: [...profile.issues, ...incoming.issues], unknownBase: profile.unknownBase || incoming.unknownBase };
      });
      if (checked.issues.length > 0) throw badRequest('body failed validation', checked.issues.map(({ path, message }) => ({ path, message })));

      /** UNIS HEAD's update: the body's members over the newest ones, checked as a whole; thrown inside the transaction, nothing is stored. */
      const updated = (current: unknown): Record<string, unknown> => {
        const merged = representations.withoutVersion(current);
        for (const [key, member] of Object.entries(body)) defineMember(merged, key, member);
        const mergedKeyIssue = isKeyed(kind) ? kind.keyIssue(merged, id) : undefined;
        if (mergedKeyIssue) throw badRequest('the updated key derives another id', [mergedKeyIssue]);
        const incoming = representations.incoming(kind, merged, '');
        if (incoming.issues.length > 0) throw badRequest('the updated resource failed validation', incoming.issues);
        return incoming.body;
      };

      const expect = expectation(ctx);
      const replayedTs = clientTs(body);
      const stored = await storageOutcome(() =>
        store.update(
          kind.collection,
          id,
          (current, ts) => representations.stored(id, ts, touch ? representations.withoutVersion(current) : update ? updated(current) : checked.body),
          { ...(expect ? { expect } : {}), ...(replayedTs !== undefined ? { replayedTs } : {}) },
        ),
      );
      ctx.set('Location', representations.selfRef(kind, id));
      await respond.one(ctx, respond.presentation(kind, type), stored, ACTION_STATUS.replace);
    };
}
