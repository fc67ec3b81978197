/** The value sets of every collection's fields (migration 0014, docs/federation.md), kept by triggers. */
export const MANIFEST_TABLE = 'manifest_values';
/** The row of `topocat_service` holding the size past which a set is `*` (REGISTER_MANIFEST_LIMIT). */
export const MANIFEST_LIMIT_SETTING = 'manifest_limit';
/** A `value` that is not JSON: the set holds any value. */
export const MANIFEST_STAR = '*';
/** Collections without a manifest: the registrations themselves. */
export const MANIFEST_UNSUMMARISED = ['register'] as const;
/** Longest dotted field kept; a query on a longer one is past every query-string limit. */
export const MAX_FIELD = 512;
/** Longest value (as JSON text) kept as itself; a longer one makes its set `*`. */
export const MAX_VALUE = 256;
/**
 * The row of `topocat_service` that says whether this database keeps manifests: `off` (no
 * triggers, no rows), `building <generation>` (triggers on, the documents stored before them
 * being scanned), `kept <generation>` (complete, kept by the triggers). Absent: as migration 0014
 * left it (triggers and rows that nobody decided to keep); the first start settles it
 * (manifest-upkeep.ts).
 */
export const MANIFEST_STATE = 'manifests';

/** What the state row says: off, not yet settled, or a generation being built or kept. */
export type State = { readonly phase: 'off' | 'unsettled' } | { readonly phase: 'building' | 'kept'; readonly generation: string };

/** The state row's `value` read (undefined: no row). */
export function stateOf(value: string | undefined): State {
  if (value === 'off') return { phase: 'off' };
  const [phase, generation] = (value ?? '').split(' ');
  return (phase === 'building' || phase === 'kept') && generation ? { phase, generation } : { phase: 'unsettled' };
}
