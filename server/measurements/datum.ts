import type { ErrorDetail } from '../http/errors.js';
import type { DataPoint } from '../storage/measurements/store.js';

/**
 * What a data point must hold. UNIS published two datum schemas (periscope-ps/unis
 * `periscope/schemas/datum`, `tsdatum`): `datum` asks for a numeric `ts` and allows anything
 * else, `tsdatum` also a numeric `v`. A metadata whose `datumSchema` names neither (or names
 * nothing) gets the shape BLiPP and dlt-web use: a numeric `ts` and a `value`.
 */
export interface DatumRule {
  /** The name the rule goes by in error messages. */
  readonly name: string;
  /** Members a point must have, with the JSON type each must be (`any`: any but null). */
  readonly required: Readonly<Record<string, 'number' | 'any'>>;
}

const RULES: Readonly<Record<string, DatumRule>> = {
  datum: { name: 'datum', required: { ts: 'number' } },
  tsdatum: { name: 'tsdatum', required: { ts: 'number', v: 'number' } },
};
export const DEFAULT_RULE: DatumRule = { name: '{ts, value}', required: { ts: 'number', value: 'any' } };

/**
 * The rule a `datumSchema` names: `{base}/datum#` or `{base}/tsdatum#` under a schema base this
 * service knows (its own, or UNIS's `unis.crest.iu.edu/schema/<version>`); otherwise the default.
 */
export function datumRule(datumSchema: string | null, isSchemaBase: (base: string) => boolean): DatumRule {
  if (datumSchema === null) return DEFAULT_RULE;
  const plain = datumSchema.endsWith('#') ? datumSchema.slice(0, -1) : datumSchema;
  const slash = plain.lastIndexOf('/');
  if (slash <= 0 || !isSchemaBase(plain.slice(0, slash))) return DEFAULT_RULE;
  return RULES[plain.slice(slash + 1)] ?? DEFAULT_RULE;
}

/**
 * The points of `value` (the `data` member of a posted batch, at `pointer`) checked against
 * `rule`: every problem a detail naming its JSON pointer. `ts` must also be finite and, as
 * microseconds, within the range of exact integers.
 */
export function checkPoints(value: unknown, pointer: string, rule: DatumRule, issues: ErrorDetail[]): DataPoint[] {
  if (!Array.isArray(value)) {
    issues.push({ path: pointer, message: 'must be an array of data points' });
    return [];
  }
  const points: DataPoint[] = [];
  value.forEach((point: unknown, i) => {
    const at = `${pointer}/${i}`;
    if (point === null || typeof point !== 'object' || Array.isArray(point)) {
      issues.push({ path: at, message: `must be a data point object (${rule.name})` });
      return;
    }
    let good = true;
    for (const [member, type] of Object.entries(rule.required)) {
      const found = (point as Record<string, unknown>)[member];
      if (!Object.hasOwn(point, member) || found === null) {
        issues.push({ path: `${at}/${member}`, message: `is required (${rule.name})` });
        good = false;
      } else if (type === 'number' && (typeof found !== 'number' || !Number.isFinite(found))) {
        issues.push({ path: `${at}/${member}`, message: `must be a number (${rule.name})` });
        good = false;
      }
    }
    const ts = (point as { ts?: unknown }).ts;
    if (good && typeof ts === 'number' && Math.abs(ts) > Number.MAX_SAFE_INTEGER) {
      issues.push({ path: `${at}/ts`, message: 'must lie within ±2^53 (microseconds since the Unix epoch)' });
      good = false;
    }
    if (good) points.push(point as DataPoint);
  });
  return points;
}
