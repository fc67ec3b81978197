import type { KindDescriptor } from '../../generated/rest/handler.js';
import { QueryError } from '../query/errors.js';
import type { Condition, ParsedQuery, Term } from '../query/syntax.js';
import type { Representations } from '../wire/representation.js';

/** A term about a derived member: always true, never true, or a term the database can answer. */
type Resolved = true | false | Term;

/**
 * `$schema` and `selfRef` are not stored (see Representations): conditions and sort keys on them
 * become conditions on what they derive from. `selfRef=<address>` is `id=<id>` for an address of
 * this service under any of its bases (`id` IN both readings of a segment with a `%`, see
 * storage/id-segment.ts); `$schema=<address>` holds for every resource of the kind
 * or for none. Only equality (and lists) can be asked of them.
 */
export function resolveDerived(query: ParsedQuery, kind: KindDescriptor, representations: Representations): ParsedQuery {
  const derived = (field: readonly string[]) => field.length === 1 && (field[0] === 'selfRef' || field[0] === '$schema');
  if (!query.conditions.some((c) => c.terms.some((t) => derived(t.field))) && !query.sort.some((k) => derived(k.field))) return query;

  const resolve = (term: Term): Resolved => {
    if (!derived(term.field)) return term;
    if (term.operator !== 'eq') throw new QueryError(term.parameter, `"${term.parameter}": ${term.field[0]} can only be compared for equality`);
    const addresses = term.values.map((v) => String(v.value));
    if (term.field[0] === '$schema') return addresses.some((a) => representations.schemaProblem(kind, a, '') === undefined);
    const ids = addresses.flatMap((a) => {
      const named = representations.resourceAt(a);
      // Either reading of an address's id (see readingsOf): which one is stored is the database's to say.
      return named?.kind === kind ? named.ids.map((id) => ({ value: id, type: 'string' as const })) : [];
    });
    return ids.length === 0 ? false : { ...term, field: ['id'], values: ids };
  };

  const conditions: Condition[] = [];
  for (const condition of query.conditions) {
    const terms = condition.terms.map(resolve);
    if (terms.includes(true)) continue;
    const left = terms.filter((t): t is Term => typeof t === 'object');
    // Nothing can match: `id` IN an empty list.
    conditions.push({ terms: left.length > 0 ? left : [{ field: ['id'], operator: 'eq', values: [], parameter: condition.terms[0]!.parameter }] });
  }
  const sort = query.sort.flatMap((key) => (!derived(key.field) ? [key] : key.field[0] === 'selfRef' ? [{ ...key, field: ['id'] }] : []));
  return { ...query, conditions, sort };
}
