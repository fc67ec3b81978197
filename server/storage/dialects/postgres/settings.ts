import type { Knex } from 'knex';
import { parseHosts, type HostList } from './hosts.js';
import type { ClientOptions } from './primary.js';

/** Opening a connection: an unreachable server must turn into a quick 503, not a hung request. */
const CONNECT_TIMEOUT_MS = 2_000;
/** Waiting for a pooled connection: past this the request is answered 503 (the pool is exhausted). */
export const ACQUIRE_TIMEOUT_MS = 3_000;
/** First TCP keepalive probe on an idle connection, so a silently vanished server is noticed. */
const KEEPALIVE_DELAY_MS = 10_000;

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** What DATABASE_URL says, as the parts of the dialect need it. */
export interface PostgresSettings {
  /** The schema of `?schema=` (tables live there), or undefined for the server's search_path. */
  readonly schema: string | undefined;
  /** The hosts the URL names (libpq's lists of several, rest-contract §16), each with a URL of its own. */
  readonly hosts: HostList;
  /** What every connection shares: timeouts, keepalive, application_name. */
  readonly options: ClientOptions;
  /** The first host's connection (a standby's, or the one host of a DATABASE_URL without a list). */
  readonly connection: Knex.PgConnectionConfig;
}

/** `where`: the setting the URL comes from, for messages (DATABASE_URL, DATABASE_READ_URLS). */
export function postgresSettings(databaseUrl: string, where = 'DATABASE_URL'): PostgresSettings {
  const queryStart = databaseUrl.indexOf('?');
  const base = queryStart < 0 ? databaseUrl : databaseUrl.slice(0, queryStart);
  const parameters = new URLSearchParams(queryStart < 0 ? '' : databaseUrl.slice(queryStart + 1));
  const schema = parameters.get('schema') ?? undefined;
  // Not a libpq parameter: the driver must not see it.
  parameters.delete('schema');
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`${where}: schema "${schema}" must be a plain identifier (letters, digits, _; at most 63)`);
  }
  const rest = parameters.toString();
  // Rebuilt only when `schema` had to be taken out, so every other URL reaches pg untouched.
  const hosts = parseHosts(schema === undefined ? databaseUrl : rest === '' ? base : `${base}?${rest}`, where);
  const options: ClientOptions = {
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    // Names the service's sessions in pg_stat_activity (an application_name in the URL wins).
    application_name: 'topocat',
  };
  return { schema, hosts, options, connection: { ...options, connectionString: hosts.hosts[0]!.url } };
}

/** How logs and /metrics name a standby: host:port/database of its URL, never its credentials. */
export function standbyName(settings: PostgresSettings): string {
  const text = settings.connection.connectionString ?? '';
  try {
    const url = new URL(text);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'standby';
  }
}
