import { hash } from 'node:crypto';
import type { Context } from 'koa';
import type { Expectation } from '../storage/resource-store.js';

/**
 * Validators of a representation (docs/rest-interface.md): a strong ETag that changes whenever `ts`
 * does, and Last-Modified from `ts`. A projection (`fields=`) is another representation, so it
 * gets its own ETag.
 */
export function etagFor(ts: number, variant?: string): string {
  if (variant === undefined) return `"${ts}"`;
  return `"${ts}.${hash('sha256', variant, 'base64url').slice(0, 12)}"`;
}

/**
 * The validator of a list answer (rest-contract §5, added 2026-11-29): where the list stands in
 * the event log (ListPositions) and a digest of everything else its bytes depend on (see
 * Responder.listVariant). Weak: two answers with one tag hold the same resources in the same
 * representations, but are not promised to be the same bytes (rows that tie under `sort=` may
 * come in another order from one plan to the next), and If-Match, which compares strongly,
 * never takes a list's tag for a resource's. If-None-Match compares weakly, so it gives 304.
 */
export function listEtagFor(position: string, variant: string): string {
  return `W/"${position}.${hash('sha256', variant, 'base64url').slice(0, 16)}"`;
}

/** If-None-Match (weak comparison) lists `etag`, or is `*`: a list has no Last-Modified to compare. */
export function noneMatch(ctx: Context, etag: string): boolean {
  const header = ctx.get('if-none-match');
  if (header === '') return false;
  if (header.trim() === '*') return true;
  const opaque = etag.slice(etag.indexOf('"') + 1, -1);
  return [...header.matchAll(ENTITY_TAG)].some((m) => m[2] === opaque);
}

/** Last-Modified values by second: the resources of a collection were mostly written in a few seconds. */
const httpDates = new Map<number, string>();
/** Most seconds remembered; the oldest entry goes first (a Map iterates in insertion order). */
const HTTP_DATES = 4096;

/** `ts` (µs) as an HTTP date, made once per second rather than once per answer (a Date and its text, about 1 µs). */
export function lastModified(ts: number): string {
  const second = Math.floor(ts / 1_000_000);
  let text = httpDates.get(second);
  if (text === undefined) {
    text = new Date(second * 1000).toUTCString();
    if (httpDates.size >= HTTP_DATES) httpDates.delete(httpDates.keys().next().value!);
    httpDates.set(second, text);
  }
  return text;
}

const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/** If-None-Match (weak comparison) or, without it, If-Modified-Since. */
export function isNotModified(ctx: Context, etag: string, ts: number): boolean {
  const noneMatch = ctx.get('if-none-match');
  if (noneMatch !== '') {
    if (noneMatch.trim() === '*') return true;
    const opaque = etag.slice(1, -1);
    return [...noneMatch.matchAll(ENTITY_TAG)].some((m) => m[2] === opaque);
  }
  const since = Date.parse(ctx.get('if-modified-since'));
  return !Number.isNaN(since) && Math.floor(ts / 1_000_000) <= Math.floor(since / 1000);
}

/**
 * If-Match as a storage expectation: `*`, or the `ts` values of the strong tags it lists. Weak
 * tags never match (RFC 9110 §13.1.1), so a header of only weak or foreign tags expects nothing
 * that can exist and the write fails with 412.
 */
export function expectation(ctx: Context): Expectation | undefined {
  const header = ctx.get('if-match');
  if (header === '') return undefined;
  if (header.trim() === '*') return 'any';
  return [...header.matchAll(ENTITY_TAG)].filter((m) => m[1] === undefined && /^\d{1,16}$/.test(m[2]!)).map((m) => Number(m[2]));
}
