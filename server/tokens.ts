import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
/**
 * What a credential allows: the four scopes of docs/rest-interface.md, `admin` for catalog users,
 * `metrics` for GET /metrics, `register` for POST /register (an instance reporting to a lookup,
 * docs/federation.md).
 */
export type TokenScope = 'read' | 'create' | 'update' | 'delete' | 'admin' | 'metrics' | 'register';
export const TOKEN_SCOPES: readonly TokenScope[] = ['read', 'create', 'update', 'delete', 'admin', 'metrics', 'register'];

/** One configured credential. Only the hash of the token is stored. */
export interface TokenEntry {
  readonly name: string;
  /** `sha256:<hex>` of the token. */
  readonly hash: string;
  readonly scopes: readonly TokenScope[];
  /** The catalog identity of the token's holder, matched against the SOAP Username header. */
  readonly dn?: string;
}

export class TokenConfigError extends Error {
  constructor(source: string, problem: string) {
    super(`${source}: ${problem}`);
    this.name = 'TokenConfigError';
  }
}

const TOKEN_PREFIX = 'tc_';

/**
 * A new random token (256 bits) and its stored form. Tokens are random, not chosen by people,
 * so a plain SHA-256 is the right hash: nothing to brute-force, and cheap on every request.
 */
export function mintToken(): { token: string; hash: string } {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** The stored form of a token: `sha256:` and the hex of tokenDigest(). */
export function hashToken(token: string): string {
  return `sha256:${tokenDigest(token).toString('hex')}`;
}

/** Parse `{ "tokens": [ { name, hash, scopes, dn? } ] }` (or the bare array). */
export function parseTokens(text: string, source: string): TokenEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TokenConfigError(source, `not valid JSON (${(error as Error).message})`);
  }
  const list = Array.isArray(value) ? value : (value as { tokens?: unknown } | null)?.tokens;
  if (!Array.isArray(list)) throw new TokenConfigError(source, 'expected {"tokens": [...]}');
  const names = new Set<string>();
  return list.map((entry: unknown, i) => {
    const at = `${source} tokens[${i}]`;
    const e = entry as Partial<Record<keyof TokenEntry, unknown>> | null;
    if (!e || typeof e.name !== 'string' || e.name === '') throw new TokenConfigError(at, 'needs a name');
    if (names.has(e.name)) throw new TokenConfigError(at, `the name "${e.name}" is used twice`);
    names.add(e.name);
    if (typeof e.hash !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(e.hash)) throw new TokenConfigError(at, 'hash must be sha256:<64 hex digits> (npm run token makes one)');
    if (!Array.isArray(e.scopes) || e.scopes.some((s) => !TOKEN_SCOPES.includes(s as TokenScope))) {
      throw new TokenConfigError(at, `scopes must be a list of ${TOKEN_SCOPES.join(', ')}`);
    }
    if (e.dn !== undefined && (typeof e.dn !== 'string' || e.dn.trim() === '')) throw new TokenConfigError(at, 'dn must be a non-empty string');
    return { name: e.name, hash: e.hash, scopes: e.scopes as TokenScope[], ...(typeof e.dn === 'string' ? { dn: e.dn.trim() } : {}) };
  });
}

/** Tokens from `TOPOCAT_TOKENS_FILE` and/or `TOPOCAT_TOKENS` (JSON text); none when neither is set. */
export function loadTokens(env: Readonly<Record<string, string | undefined>>): TokenEntry[] {
  const entries: TokenEntry[] = [];
  if (env.TOPOCAT_TOKENS_FILE) {
    let text: string;
    try {
      text = readFileSync(env.TOPOCAT_TOKENS_FILE, 'utf8');
    } catch (error) {
      throw new TokenConfigError('TOPOCAT_TOKENS_FILE', (error as Error).message);
    }
    entries.push(...parseTokens(text, env.TOPOCAT_TOKENS_FILE));
  }
  if (env.TOPOCAT_TOKENS) entries.push(...parseTokens(env.TOPOCAT_TOKENS, 'TOPOCAT_TOKENS'));
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new TokenConfigError('tokens', `the name "${entry.name}" is configured twice`);
    names.add(entry.name);
  }
  return entries;
}

/** The SHA-256 digest of a presented token, as bytes: what a stored hash holds in hex. */
function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The bytes of a stored `sha256:<hex>` hash (parseTokens has checked its form). */
export function storedDigest(entry: TokenEntry): Buffer {
  return Buffer.from(entry.hash.slice('sha256:'.length), 'hex');
}

/**
 * The candidate whose digest matches the presented token's, comparing every candidate in
 * constant time so that the time taken says nothing about which stored digest came close.
 */
export function findToken<T extends { readonly digest: Buffer }>(candidates: readonly T[], token: string): T | undefined {
  const presented = tokenDigest(token);
  let found: T | undefined;
  for (const candidate of candidates) {
    if (timingSafeEqual(candidate.digest, presented) && found === undefined) found = candidate;
  }
  return found;
}
