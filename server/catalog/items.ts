import type { CatalogWrites } from '../storage/catalog/store.js';
import { Refusal, type ItemOutcomes } from './status.js';

/**
 * Run `work` for each item of a multi-item request, each in its own savepoint: an item is stored
 * whole or not at all, and a refused item does not stop the others. Errors that are not
 * refusals (the database failing) abort the whole request. Items run in request order, so a
 * later item sees what an earlier one stored.
 */
export async function attemptEach<T>(
  writes: CatalogWrites,
  outcomes: ItemOutcomes,
  items: readonly T[],
  label: (item: T, index: number) => string,
  work: (writes: CatalogWrites, item: T) => Promise<void>,
): Promise<void> {
  for (const [index, item] of items.entries()) {
    try {
      await writes.attempt((w) => work(w, item));
      outcomes.succeeded();
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      outcomes.failed({ cause: error.cause, description: `${label(item, index)}: ${error.description}` });
    }
  }
}
