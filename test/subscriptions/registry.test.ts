import assert from 'node:assert/strict';
import fc from 'fast-check';
import { nodeKind } from '../../generated/rest/kinds.js';
import { matches } from '../../server/query/match.js';
import { subscriptionConditions } from '../../server/query/unis-subscription.js';
import type { Subscription } from '../../server/subscriptions/subscription.js';
import { Registry } from '../../server/subscriptions/registry.js';

const KEYS = ['name', 'urn', 'ports', 'href', 'location', 'institution', 'tags', 'n'] as const;
const scalars = fc.oneof(fc.constantFrom('a', 'b', '1', '', 'IU'), fc.integer({ min: -2, max: 2 }), fc.boolean(), fc.constant(null));
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalars, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 3 })),
})).value;
const documents = fc.dictionary(fc.constantFrom(...KEYS), json, { maxKeys: 4 });
const paths = fc.oneof(fc.constantFrom('name', 'ports.href', 'location.institution', 'tags', 'n'), fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 2 }).map((p) => p.join('.')));
const queries = fc.dictionary(
  paths,
  fc.oneof(
    fc.constantFrom('a', 'b', 'IU', 1, 0, true),
    fc.record({ in: fc.array(fc.constantFrom('a', 'b', 'IU', 1, 0), { minLength: 1, maxLength: 3 }) }),
    fc.record({ gt: fc.constantFrom(0, 'a') }),
  ),
  { maxKeys: 2 },
);

/**
 * The registry files subscriptions by the value an equality of theirs asks for, so a change is
 * offered only to the few that may want it. That must never leave out one that matches.
 */
describe('subscriptions: the registry offers every change to every subscription that matches it', () => {
  it('for random documents and random UNIS queries', () => {
    fc.assert(
      fc.property(fc.array(queries, { minLength: 1, maxLength: 10 }), fc.array(documents, { minLength: 1, maxLength: 10 }), (querySet, docs) => {
        const registry = new Registry();
        const subscriptions: Subscription[] = querySet.map((query) => ({ kind: nodeKind, conditions: subscriptionConditions(query, nodeKind.fields), deliver: () => undefined }));
        const removals = subscriptions.map((s) => registry.add(s));
        docs.forEach((doc, i) => {
          const candidate = { id: `r${i}`, ts: 1, document: doc };
          const offered = registry.candidates('nodes', candidate.id, doc);
          for (const subscription of subscriptions) {
            if (matches(candidate, subscription.conditions)) assert.ok(offered.has(subscription), `${JSON.stringify(querySet[subscriptions.indexOf(subscription)])} over ${JSON.stringify(doc)}`);
          }
        });
        removals.forEach((remove) => remove());
        assert.equal(registry.size, 0);
        assert.equal(registry.interest('nodes', 'r0').any, false);
      }),
      { numRuns: 500 },
    );
  });
});
