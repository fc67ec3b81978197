/**
 * The environment variables the service reads (README.md, "Configuration"), and the warning for
 * a variable that looks like one of them but is not: a misspelt `DATABSE_URL` would otherwise
 * silently serve the default SQLite file.
 */
export const SETTINGS: readonly string[] = [
  'PORT', 'WORKERS', 'HOST', 'PUBLIC_URL', 'SCHEMA_BASE', 'DATABASE_URL', 'DATABASE_READ_URLS', 'READ_WAIT_MS', 'DATABASE_POOL_MAX', 'READ_CACHE_MB',
  'STATISTICS_INTERVAL_MS', 'MEASUREMENT_PRUNE_INTERVAL_MS', 'LOG_LEVEL', 'MAX_BODY_BYTES', 'MAX_ARRAY_ITEMS',
  'MAX_JSON_DEPTH', 'MAX_QUERY_PARAMETERS', 'REQUEST_TIMEOUT_MS', 'HEADERS_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS',
  'SHUTDOWN_TIMEOUT_MS', 'TOPOCAT_TOKENS_FILE', 'TOPOCAT_TOKENS', 'CORS_ORIGINS', 'ALLOW_OPEN_ACCESS', 'CATALOG_PATH',
  'CATALOG_ADMIN_DNS', 'CATALOG_PUBLIC_DNS', 'CATALOG_DEFINITIONS_FILE', 'CATALOG_ENFORCE_DEFINITIONS', 'MAX_XML_DEPTH',
  'MAX_XML_ELEMENTS', 'MAX_SUBSCRIBERS', 'MAX_SUBSCRIPTIONS_PER_CONNECTION', 'MAX_SUBSCRIBER_BUFFER_BYTES',
  'MAX_SUBSCRIPTION_MESSAGE_BYTES', 'TOPOCAT_NO_REBUILD', 'METRICS', 'START_LOCK_TIMEOUT_MS', 'CATALOG_RESULT_TTL_S', 'CATALOG_CACHE_MB',
  'REGISTER_URLS', 'REGISTER_COMMUNITIES', 'REGISTER_INTERVAL_MS', 'REGISTER_MANIFEST_LIMIT', 'REGISTER_TOKEN', 'LOOKUP',
  'FEDERATE_TIMEOUT_MS',
];

/** Edits (insertions, deletions, substitutions, swaps of neighbours) between two names. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * For each variable of `env` that is not a setting but looks like one, the setting it likely
 * meant: one edit away (two for names of nine letters or more; `HOME`, two from `HOST`, is not a
 * look-alike), or any `TOPOCAT_` name that is not ours. Case and `-` are ignored, so `database_url`
 * and `DATABASE-URL` count too.
 */
export function lookAlikes(env: Readonly<Record<string, string | undefined>>): { variable: string; meant: string }[] {
  const found: { variable: string; meant: string }[] = [];
  for (const variable of Object.keys(env)) {
    if (SETTINGS.includes(variable)) continue;
    const name = variable.toUpperCase().replace(/-/g, '_');
    let meant: string | undefined;
    let best = Infinity;
    for (const setting of SETTINGS) {
      const d = distance(name, setting);
      if (d < best) [best, meant] = [d, setting];
    }
    const near = best <= (name.length >= 9 ? 2 : 1);
    if (meant !== undefined && (near || name.startsWith('TOPOCAT_'))) found.push({ variable, meant });
  }
  return found;
}
