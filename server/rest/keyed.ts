import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { ValidationIssue } from '../../generated/validators/index.js';
import type { TokenScope } from '../tokens.js';

/**
 * A kind whose ids the server derives from the body (a registration's, from its accessPoint:
 * kinds/register-kind.ts). The REST operations derive the key before they validate, and a
 * POST of it needs a scope of its own.
 */
export interface KeyedKind extends KindDescriptor {
  /** Set the item's id (and normalise its key) before it is checked; an item without a usable key is left for validation to refuse. */
  assignKey(item: unknown): void;
  /**
   * For a PUT or PATCH of `id`: normalise the item's key and return the issue when the id it
   * derives is not `id` (an item without a usable key is left for validation to refuse).
   */
  keyIssue(item: unknown, id: string): ValidationIssue | undefined;
  /** The scope a POST needs (with tokens configured). */
  readonly createScope: TokenScope;
}

export function isKeyed(kind: KindDescriptor): kind is KeyedKind {
  return typeof (kind as Partial<KeyedKind>).assignKey === 'function';
}
