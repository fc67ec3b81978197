import type { Published } from './hub.js';

/**
 * UNIS's frame of a change (`unis-clients.md` §3): `{"headers": {action, collection, id}, "data"}`.
 * With `fields`, the data keeps only those top-level members (a deletion's `{"id"}` stays whole).
 * The WebSocket endpoints send it as is; the service-wide event stream carries it as each
 * event's data, since one stream mixes collections.
 */
export function unisFrame(change: Published, fields?: readonly string[]): string {
  const headers = `{"headers":{"action":"${change.action}","collection":${JSON.stringify(change.collection)},"id":${JSON.stringify(change.id)}},"data":`;
  if (!fields || change.action === 'DELETE') return `${headers}${change.data}}`;
  const document = JSON.parse(change.data) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(document, field)) kept[field] = document[field];
  return `${headers}${JSON.stringify(kept)}}`;
}
