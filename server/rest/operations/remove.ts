import type { RouterMiddleware } from '@koa/router';
import { ACTION_STATUS } from '../../../generated/rest/contract.js';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { ResourceMissing } from '../../storage/errors.js';
import { expectation } from '../../wire/conditional.js';
import { typedRequest } from '../../wire/media.js';
import { pathId, storageOutcome } from '../request.js';
import type { OperationContext } from './context.js';

/**
 * DELETE /<collection>/<id> (docs/rest-interface.md): 204; the older versions stay stored. An
 * unknown or deleted id is a 404 to a typed request and UNIS HEAD's 204 to a UNIS-form one
 * (rest-contract §3, revised 2026-11-28: the same split as GET's), unless `If-Match` makes the
 * delete conditional: no representation is there to meet the condition, so it stays a 404.
 */
export function remove({ store }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      const expect = expectation(ctx);
      const id = await pathId(ctx, kind, store);
      const unisForm = expect === undefined && !typedRequest(ctx.get('accept'));
      await storageOutcome(async () => {
        try {
          await store.remove(kind.collection, id, expect ? { expect } : {});
        } catch (error) {
          if (!(unisForm && error instanceof ResourceMissing)) throw error;
        }
      });
      ctx.status = ACTION_STATUS.remove;
    };
}
