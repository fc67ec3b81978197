import type { RouterMiddleware } from '@koa/router';
import type { KindDescriptor, RestHandlers } from '../../generated/rest/handler.js';
import { authorize, scopeOf } from '../auth.js';
import { isKeyed } from './keyed.js';
import type { Limits } from '../config.js';
import type { ResourceStore } from '../storage/resource-store.js';
import type { EventStreamOptions } from '../subscriptions/event-stream.js';
import { CompositePlanner } from './composite.js';
import type { OperationContext } from './operations/context.js';
import { create } from './operations/create.js';
import { list } from './operations/list.js';
import { patch } from './operations/patch.js';
import { read } from './operations/read.js';
import { remove } from './operations/remove.js';
import { replace } from './operations/replace.js';
import type { Representations } from '../wire/representation.js';
import { Responder } from './respond.js';

export interface RestDependencies {
  readonly store: ResourceStore;
  readonly representations: Representations;
  readonly limits: Limits;
  readonly events: EventStreamOptions;
}

type Operation = (context: OperationContext) => (kind: KindDescriptor) => RouterMiddleware;

/** Every collection operation needs the scope of its method (docs/rest-interface.md); a registration, `register`. */
function guarded(operation: Operation, context: OperationContext) {
  const bind = operation(context);
  return (kind: KindDescriptor): RouterMiddleware => {
    const handle = bind(kind);
    return (ctx, next) => {
      authorize(ctx, isKeyed(kind) && ctx.method === 'POST' ? kind.createScope : scopeOf(ctx.method));
      return handle(ctx, next);
    };
  };
}

/**
 * The six operations of every collection (docs/rest-interface.md), one file each under
 * operations/, bound to each kind by the generated routes.
 */
export function createRestHandlers({ store, representations, limits, events }: RestDependencies): RestHandlers {
  const context: OperationContext = {
    store,
    representations,
    limits,
    events,
    respond: new Responder(representations, store),
    planner: new CompositePlanner(representations),
  };
  return {
    create: guarded(create, context),
    list: guarded(list, context),
    read: guarded(read, context),
    replace: guarded(replace, context),
    patch: guarded(patch, context),
    remove: guarded(remove, context),
  };
}
