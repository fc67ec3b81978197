import type { RouterMiddleware } from '@koa/router';
import { ACTION_STATUS } from '../../../generated/rest/contract.js';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { expectation } from '../../wire/conditional.js';
import { pathId, storageOutcome } from '../request.js';
import type { OperationContext } from './context.js';

/** DELETE /<collection>/<id> (docs/rest-interface.md): 204; the older versions stay stored. */
export function remove({ store }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      const expect = expectation(ctx);
      const id = pathId(ctx, kind);
      await storageOutcome(() => store.remove(kind.collection, id, expect ? { expect } : {}));
      ctx.status = ACTION_STATUS.remove;
    };
}
