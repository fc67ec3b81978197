import type { RouterMiddleware } from '@koa/router';
import { ACTION_STATUS } from '../../../generated/rest/contract.js';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { isKeyed } from '../keyed.js';
import { HttpError, badRequest } from '../../http/errors.js';
import { responseType, typedRequest } from '../../wire/media.js';
import { profileProblem, readWriteBody, storageOutcome, withKnownBases } from '../request.js';
import type { OperationContext } from './context.js';

/**
 * POST /<collection>: one resource or an array of them, all or nothing (docs/rest-interface.md).
 * An id a live resource has stores a new version of it, as UNIS did; `If-None-Match: *`
 * makes every item create-only. Whole resources embedded in `x-embed` arrays are stored too.
 * An array answers the array, except one of one element in UNIS form (see typedRequest).
 */
export function create({ store, representations, limits, respond, planner }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      const type = responseType(ctx);
      const body = await readWriteBody(ctx, limits, false);
      const many = Array.isArray(body);
      const items: unknown[] = many ? body : [body];
      if (items.length > limits.arrayItems) throw new HttpError(413, `array of ${items.length} items; at most ${limits.arrayItems} are accepted`);
      const createOnly = ctx.get('if-none-match').trim() === '*';
      // A keyed kind's id is its key's (a registration's, its accessPoint's: rest/keyed.ts), whatever id it sent.
      if (isKeyed(kind)) for (const item of items) kind.assignKey(item);

      const checked = await withKnownBases(representations, () => {
        const profile = profileProblem(ctx, kind, representations, false);
        const plan = planner.plan(kind, items, items.map((_, i) => (many ? `/${i}` : '')));
        return { plan, issues: [...profile.issues, ...plan.issues], unknownBase: profile.unknownBase || plan.unknownBase };
      });
      const { plan } = checked;
      if (plan.resources.length > limits.arrayItems) {
        throw new HttpError(413, `${plan.resources.length} resources with the embedded ones; at most ${limits.arrayItems} are accepted`);
      }
      if (checked.issues.length > 0) throw badRequest('body failed validation', checked.issues);

      const stored = await storageOutcome(
        () =>
          store.insert(
            plan.resources.map((r) => ({
              kind: r.kind.collection,
              id: r.id,
              clientId: r.clientId,
              createOnly,
              ...(r.replayedTs !== undefined ? { replayedTs: r.replayedTs } : {}),
              build: (id: string, ts: number) => representations.stored(id, ts, r.body),
            })),
          ),
        (index) => (index === undefined ? '' : plan.resources[index]!.pointer),
      );
      const answered = plan.items.map((position) => ({ presentation: respond.presentation(plan.resources[position]!.kind, type), stored: stored[position]! }));
      // A one-element array in UNIS form is answered as UNIS HEAD answered it: the object, with
      // its Location (rest-contract §4, revised 2026-11-28); typed requests keep the array.
      if (many && !(items.length === 1 && !typedRequest(ctx.get('accept')))) {
        await respond.several(ctx, answered.map((a) => a.presentation), answered.map((a) => a.stored), type, ACTION_STATUS.create);
        return;
      }
      ctx.set('Location', representations.selfRef(kind, answered[0]!.stored.id));
      await respond.one(ctx, answered[0]!.presentation, answered[0]!.stored, ACTION_STATUS.create);
    };
}
