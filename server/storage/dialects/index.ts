import type { Dialect } from '../contract/dialect.js';
import { postgresDialect } from './postgres/index.js';
import { sqliteDialect } from './sqlite/index.js';
import { engineOf, type EngineName } from './urls.js';

const DIALECTS: Record<EngineName, (url: string) => Dialect> = { sqlite: sqliteDialect, postgres: postgresDialect };

/** The dialect of the database that `url` (DATABASE_URL) names. */
export function dialectFor(url: string): Dialect {
  const engine = engineOf(url);
  if (!engine) throw new Error(`DATABASE_URL: unsupported database "${url.split(':')[0]}"`);
  return DIALECTS[engine](url);
}
