import type { ChangeAction } from '../storage/contract/events.js';
import type { Published } from './subscription.js';

/**
 * UNIS's frame of a change (`unis-clients.md` §3): `{"headers": {action, collection, id}, "data"}`.
 * With `fields`, the data keeps only those top-level members (a deletion's `{"id"}` stays whole).
 * The WebSocket endpoints send it with socketAction's action; the service-wide event stream
 * carries it as each event's data, since one stream mixes collections, with the event's own.
 */
export function unisFrame(change: Published, fields?: readonly string[], action: ChangeAction = change.action): string {
  const headers = `{"headers":{"action":"${action}","collection":${JSON.stringify(change.collection)},"id":${JSON.stringify(change.id)}},"data":`;
  if (!fields || change.action === 'DELETE') return `${headers}${change.data}}`;
  const document = JSON.parse(change.data) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(document, field)) kept[field] = document[field];
  return `${headers}${JSON.stringify(kept)}}`;
}

/**
 * The action a frame on UNIS's WebSocket names: a re-POST of a live id is a POST there, as UNIS
 * HEAD published every insert (rest-contract §11, revised 2026-11-28). UNISrt takes a cached
 * resource's data only from POST frames and renews only its `ts` on a PUT frame, so a second
 * runtime would not see the fields a re-POST changed. The event streams keep PUT.
 */
export function socketAction(change: Published): ChangeAction {
  return change.reposted ? 'POST' : change.action;
}
