import type { Condition, Term } from '../query/syntax.js';
import type { Registered } from './registry.js';

/** Fields every resource has, which no manifest lists: a query on them may match anywhere. */
const EVERYWHERE = new Set(['id', 'ts']);

/** True when the term may hold for some resource the manifest summarises. */
function mayHold(term: Term, fields: ReadonlyMap<string, ReadonlySet<string> | '*'>): boolean {
  const field = term.field.join('.');
  if (EVERYWHERE.has(field)) return true;
  // `null=` and `exists=false`: absent, which a manifest cannot rule out; `not=`: anything but one value.
  if (term.operator === 'null' || term.operator === 'not' || (term.operator === 'exists' && term.values[0]?.value === false)) return true;
  const set = fields.get(field);
  if (set === undefined) return [...fields.keys()].some((known) => known.startsWith(`${field}.`));
  if (set === '*') return true;
  if (term.operator !== 'eq' && term.operator !== 'numeq') return true;
  return term.values.some((v) => set.has(String(v.value)) || (typeof v.value === 'number' && [...set].some((s) => Number(s) === v.value)));
}

/**
 * The instances a lookup redirects `GET /<collection>?<conditions>` to (rest-contract §13): the
 * registrations whose manifest for the collection may hold a match; each condition (AND) needs
 * one of its terms (OR) to be possible there.
 */
export function redirectTargets(registrations: readonly Registered[], collection: string, conditions: readonly Condition[]): string[] {
  const onlyEverywhere = conditions.every((c) => c.terms.every((t) => EVERYWHERE.has(t.field.join('.'))));
  return registrations
    .filter((r) => {
      if (conditions.length > 0 && onlyEverywhere) return true;
      const fields = r.manifests.get(collection);
      if (!fields) return false;
      return conditions.every((c) => c.terms.some((t) => mayHold(t, fields)));
    })
    .map((r) => r.accessPoint);
}
