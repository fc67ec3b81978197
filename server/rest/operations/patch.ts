import type { RouterMiddleware } from '@koa/router';
import { ACTION_STATUS } from '../../../generated/rest/contract.js';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { isKeyed } from '../keyed.js';
import { badRequest } from '../../http/errors.js';
import { expectation } from '../../wire/conditional.js';
import { responseType } from '../../wire/media.js';
import { applyMergePatch } from '../merge-patch.js';
import { pathId, profileProblem, readWriteBody, requireObject, storageOutcome, withKnownBases } from '../request.js';
import type { OperationContext } from './context.js';

/**
 * PATCH /<collection>/<id> (docs/rest-interface.md): JSON Merge Patch applied to the newest
 * representation while it is locked; the result is validated and stored as a new version.
 */
export function patch({ store, representations, limits, respond }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      const type = responseType(ctx);
      const id = await pathId(ctx, kind, store);
      const changes = requireObject(await readWriteBody(ctx, limits, true), 'a merge patch of a resource');
      if ('id' in changes && changes.id !== id) {
        throw badRequest('a patch cannot change the id', [{ path: '/id', message: `must be "${id}" or absent` }]);
      }
      const checked = await withKnownBases(representations, () => {
        const profile = profileProblem(ctx, kind, representations, true);
        const problem = changes.$schema === undefined || changes.$schema === null ? undefined : representations.schemaProblem(kind, changes.$schema, '/$schema');
        return { issues: [...profile.issues, ...(problem ? [{ path: problem.path, message: problem.message }] : [])], unknownBase: profile.unknownBase || problem?.unknownBase === true };
      });
      if (checked.issues.length > 0) throw badRequest('body failed validation', checked.issues);

      const expect = expectation(ctx);
      const stored = await storageOutcome(() =>
        store.update(
          kind.collection,
          id,
          (current, ts) => {
            const merged = applyMergePatch(representations.withoutVersion(current), changes);
            // A keyed kind (/register): the patched key must still derive this id.
            const keyIssue = isKeyed(kind) ? kind.keyIssue(merged, id) : undefined;
            if (keyIssue) throw badRequest('the patched key derives another id', [keyIssue]);
            const incoming = representations.incoming(kind, merged, '');
            // Thrown inside the transaction: nothing is stored.
            if (incoming.issues.length > 0) throw badRequest('the patched resource failed validation', incoming.issues);
            return representations.stored(id, ts, incoming.body);
          },
          expect ? { expect } : {},
        ),
      );
      await respond.one(ctx, respond.presentation(kind, type), stored, ACTION_STATUS.patch);
    };
}
