import { createHash } from 'node:crypto';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { serviceKind } from '../../generated/rest/kinds.js';
import type { ValidationIssue } from '../../generated/validators/index.js';
import type { TokenScope } from '../tokens.js';

/** The collection of registrations (rest-contract §13, docs/federation.md). */
export const REGISTER = 'register';

/** The accessPoint as stored and compared: an http or https URL without a trailing slash; undefined if it is none. */
export function normalAccessPoint(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return undefined;
  return url.href.replace(/\/+$/, '');
}

/**
 * The id of an instance's registration: a digest of its accessPoint, so every report of one
 * instance (from any of its processes, with any id it sent) is a version of one resource, and
 * two reports arriving together lock the same row instead of racing to create two.
 */
export function registrationId(accessPoint: string): string {
  return createHash('sha256').update(accessPoint).digest('hex').slice(0, 32);
}

function manifestIssues(summary: unknown, pointer: string): ValidationIssue[] {
  if (!Array.isArray(summary)) return [{ path: pointer, message: 'must be an array of manifests' }];
  const issues: ValidationIssue[] = [];
  summary.forEach((manifest: unknown, i) => {
    const at = `${pointer}/${i}`;
    if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) return void issues.push({ path: at, message: 'must be a manifest object' });
    const m = manifest as Record<string, unknown>;
    if (typeof m.$collection !== 'string') issues.push({ path: `${at}/$collection`, message: 'must be a collection name' });
    const properties = m.properties;
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return void issues.push({ path: `${at}/properties`, message: 'must be an object of value sets' });
    for (const [field, set] of Object.entries(properties as Record<string, unknown>)) {
      if (set !== '*' && !Array.isArray(set)) issues.push({ path: `${at}/properties/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: 'must be an array of values or "*"' });
    }
  });
  return issues;
}

/**
 * What makes a kind keyed (rest/keyed.ts `KeyedKind`, which the REST operations check), said
 * here without importing rest/ (kinds/ is a leaf that every layer serving a kind may import, and
 * imports none of them: docs/internals.md); server/collections.ts binds `registerKind` as a
 * `KeyedKind`, so the two cannot drift apart.
 */
interface Keyed {
  assignKey(item: unknown): void;
  keyIssue(item: unknown, id: string): ValidationIssue | undefined;
  readonly createScope: TokenScope;
}

/**
 * `/register`: `service` representations (their `$schema` is the service schema's), each an
 * instance's registration, keyed by accessPoint. The service schema's own
 * `properties.summary` is an object; a registration's is UNIS's array of manifests, checked here.
 */
export const registerKind: KindDescriptor & Keyed = {
  ...serviceKind,
  collection: REGISTER,
  createScope: 'register',
  assignKey(item) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
    const body = item as Record<string, unknown>;
    const accessPoint = normalAccessPoint(body.accessPoint);
    if (accessPoint === undefined) return;
    body.accessPoint = accessPoint;
    body.id = registrationId(accessPoint);
  },
  keyIssue(item, id) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const body = item as Record<string, unknown>;
    const accessPoint = normalAccessPoint(body.accessPoint);
    if (accessPoint === undefined) return undefined;
    body.accessPoint = accessPoint;
    // The id is the accessPoint's digest: another accessPoint is another registration (POST it).
    return registrationId(accessPoint) === id ? undefined : { path: '/accessPoint', message: `must be the accessPoint registration ${id} is keyed by; another accessPoint is another registration` };
  },
  validate(value) {
    const issues: ValidationIssue[] = [];
    const body = value as Record<string, unknown>;
    if (body.accessPoint === undefined) issues.push({ path: '/accessPoint', message: 'is required: the base URL of the registering instance' });
    else if (normalAccessPoint(body.accessPoint) === undefined) issues.push({ path: '/accessPoint', message: 'must be an http or https URL without query, fragment or credentials' });
    const communities = body.communities;
    if (communities !== undefined && (!Array.isArray(communities) || communities.some((c) => typeof c !== 'string'))) issues.push({ path: '/communities', message: 'must be an array of strings' });
    let checked: unknown = body;
    const properties = body.properties;
    if (properties !== null && typeof properties === 'object' && !Array.isArray(properties) && 'summary' in properties) {
      const { summary, ...rest } = properties as Record<string, unknown>;
      issues.push(...manifestIssues(summary, '/properties/summary'));
      checked = { ...body, properties: rest };
    }
    const result = serviceKind.validate(checked);
    if (!result.valid) issues.push(...result.issues);
    return issues.length === 0 ? { valid: true, value: value as never } : { valid: false, issues };
  },
};
