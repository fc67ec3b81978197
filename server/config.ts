/**
 * Configuration from the environment. Every setting has a default that runs the service on one
 * machine with SQLite; each is documented in the README's configuration table.
 */
import { DATABASE_URL_FORMS, DEFAULT_DATABASE_URL, engineOf, standbyUrlsProblem } from './storage/dialects/urls.js';

export interface Limits {
  /** Largest accepted request body, in bytes (413 above). */
  readonly bodyBytes: number;
  /** Most items in one POSTed array (413 above). */
  readonly arrayItems: number;
  /** Deepest JSON nesting accepted (400 above). */
  readonly jsonDepth: number;
  /** Most query parameters in one request (400 above). */
  readonly queryParameters: number;
  /** Deepest XML element nesting in a SOAP request (a fault above). */
  readonly xmlDepth: number;
  /** Most XML elements in one SOAP request (a fault above). */
  readonly xmlElements: number;
}

/** The SOAP catalog (docs/catalog-interface.md). */
export interface CatalogConfig {
  /** Path of the SOAP endpoint; its WSDL is at `{path}?wsdl`. */
  readonly path: string;
  /** DNs that may create, update and delete other users; empty: anyone may. */
  readonly adminDns: readonly string[];
  /** DNs whose objects every caller may read (never change). */
  readonly publicDns: readonly string[];
  /** JSON file of property definitions loaded at start; none when unset. */
  readonly definitionsFile: string | undefined;
  /** Reject properties and elements the definitions do not name, and values of the wrong type. */
  readonly enforceDefinitions: boolean;
  /** How long a STREAMING result may be fetched from its resultStreamUrl, in seconds. */
  readonly resultTtlS: number;
  /** Memory for the property trees that results showed, in MiB (catalog/property-trees.ts); 0: none. */
  readonly cacheMb: number;
}

export interface Timeouts {
  /** Time allowed to receive a whole request, headers and body (Node's requestTimeout). */
  readonly requestMs: number;
  /** Time allowed to receive the request headers. */
  readonly headersMs: number;
  /** Idle time before a kept-alive connection is closed. */
  readonly keepAliveMs: number;
  /** On SIGTERM, how long in-flight requests may take before the process exits anyway. */
  readonly shutdownMs: number;
  /**
   * At start, how long to wait for the database's write lock held by another process (on
   * SQLite, a previous server still stopping) before giving up.
   */
  readonly startLockMs: number;
}

/** Subscriptions (docs/subscriptions.md): what one process holds for its subscribers at most. */
export interface SubscriptionLimits {
  /** Open WebSocket and event-stream connections (503 above). */
  readonly connections: number;
  /** Subscriptions on one WebSocket (an error frame above). */
  readonly perConnection: number;
  /** Bytes waiting to be sent to one subscriber; past this it is disconnected. */
  readonly bufferedBytes: number;
  /** Largest WebSocket message a client may send. */
  readonly messageBytes: number;
}

/** Federation (rest-contract §13, docs/federation.md). */
export interface FederationConfig {
  /** Lookup base URLs this instance reports to (REGISTER_URLS, comma-separated); none: it reports nowhere. */
  readonly registerUrls: readonly string[];
  /** Community labels sent with each report (REGISTER_COMMUNITIES). */
  readonly communities: readonly string[];
  /** Period of the reports (REGISTER_INTERVAL_MS, UNIS: one hour); the registration's ttl is twice it. */
  readonly intervalMs: number;
  /** Values a field's set holds before it is reported as `*` (REGISTER_MANIFEST_LIMIT, UNIS: 10). */
  readonly manifestLimit: number;
  /** Bearer token sent upstream (REGISTER_TOKEN). */
  readonly token: string | undefined;
  /** Answer the resource collections with redirects from the registrations (LOOKUP=true). */
  readonly lookup: boolean;
  /** Time a `federate=true` query gives each instance (FEDERATE_TIMEOUT_MS). */
  readonly federateTimeoutMs: number;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Base URL of the service as clients see it; `selfRef` and `Location` are built from it. */
  readonly publicUrl: string | undefined;
  /** Base of the schema addresses (`$schema`); defaults to `{publicUrl}/schema/<version>`. */
  readonly schemaBase: string | undefined;
  readonly databaseUrl: string;
  /** Connections per process to the database (readers, for SQLite). */
  readonly databasePoolMax: number;
  /** DATABASE_READ_URLS: PostgreSQL streaming standbys that serve reads (rest-contract §15); empty: the primary serves all. */
  readonly databaseReadUrls: readonly string[];
  /** READ_WAIT_MS: how long a read waits for a standby to replay far enough before the primary serves it. */
  readonly readWaitMs: number;
  /** Memory for the newest representations that reads asked for, in MiB (SQLite, one process); 0: none. */
  readonly readCacheMb: number;
  /** How often to check whether the planner's statistics need a refresh (SQLite); 0: never. */
  readonly statisticsIntervalMs: number;
  /** How often to delete the expired points of every series with a ttl (docs/measurements.md); 0: never. */
  readonly measurementPruneIntervalMs: number;
  readonly logLevel: string;
  /** Serve without tokens on a non-loopback address (ALLOW_OPEN_ACCESS=true). */
  readonly allowOpenAccess: boolean;
  readonly limits: Limits;
  readonly subscriptions: SubscriptionLimits;
  readonly timeouts: Timeouts;
  readonly catalog: CatalogConfig;
  /** Server processes sharing the port (`--workers N` or WORKERS); 1 runs no cluster primary. */
  readonly workers: number;
  /** Origins whose browser pages may call the service (CORS); none by default, `*` for any. */
  readonly corsOrigins: readonly string[];
  /** Serve GET /metrics and count what it reports (METRICS, on by default). */
  readonly metrics: boolean;
  readonly federation: FederationConfig;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return wholeNumber(name, raw, min, max);
}

function url(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  return httpBaseUrl(raw, name);
}

/** An http(s) base URL as PUBLIC_URL takes one (no query, no fragment), without its trailing `/`; a ConfigError naming `name` otherwise. */
export function httpBaseUrl(raw: string, name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL: "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(name, 'must be an http or https URL');
  if (parsed.search !== '' || parsed.hash !== '') throw new ConfigError(name, 'must not carry a query or fragment');
  return parsed.href.replace(/\/+$/, '');
}

/** Comma-separated http(s) base URLs. */
function urls(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => url({ [name]: item }, name)!);
}

function list(env: Env, name: string): string[] {
  // DNs contain commas (`CN=x,O=y`), so lists are separated by semicolons or newlines.
  return (env[name] ?? '')
    .split(/[;\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, 'expected true or false');
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Most worker processes: far beyond any useful count, low enough to catch a typo. */
const MAX_WORKERS = 256;

/**
 * The command line: `--workers N` (or `--workers=N`) and nothing else, so a mistyped option is
 * an error rather than silently ignored. The flag wins over WORKERS.
 */
function workers(env: Env, args: readonly string[]): number {
  let flagValue: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--workers') {
      flagValue = args[++i];
      if (flagValue === undefined) throw new ConfigError('--workers', 'needs a value, e.g. --workers 2');
    } else if (arg.startsWith('--workers=')) {
      flagValue = arg.slice('--workers='.length);
    } else {
      throw new ConfigError(arg, 'unknown argument; the only one is --workers N (see npm start -- --help)');
    }
  }
  if (flagValue === undefined) return integer(env, 'WORKERS', 1, 1, MAX_WORKERS);
  return wholeNumber('--workers', flagValue, 1, MAX_WORKERS);
}

export function loadConfig(env: Env = process.env, args: readonly string[] = []): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`);
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!engineOf(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', `expected ${DATABASE_URL_FORMS}`);
  }
  const databaseReadUrls = (env.DATABASE_READ_URLS ?? '').split(',').map((u) => u.trim()).filter((u) => u !== '');
  const standbyProblem = standbyUrlsProblem(databaseUrl, databaseReadUrls);
  if (standbyProblem !== undefined) throw new ConfigError('DATABASE_READ_URLS', standbyProblem);
  const requestMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1_000);
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65_535),
    publicUrl: url(env, 'PUBLIC_URL'),
    schemaBase: url(env, 'SCHEMA_BASE'),
    databaseUrl,
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 8, 1, 1_000),
    databaseReadUrls,
    readWaitMs: integer(env, 'READ_WAIT_MS', 250, 0, 60_000),
    readCacheMb: integer(env, 'READ_CACHE_MB', 128, 0, 65_536),
    statisticsIntervalMs: integer(env, 'STATISTICS_INTERVAL_MS', 30_000, 0),
    measurementPruneIntervalMs: integer(env, 'MEASUREMENT_PRUNE_INTERVAL_MS', 60_000, 0),
    logLevel,
    allowOpenAccess: flag(env, 'ALLOW_OPEN_ACCESS'),
    limits: {
      bodyBytes: integer(env, 'MAX_BODY_BYTES', 10 * 1024 * 1024, 1_024),
      arrayItems: integer(env, 'MAX_ARRAY_ITEMS', 10_000, 1),
      jsonDepth: integer(env, 'MAX_JSON_DEPTH', 64, 2, 10_000),
      queryParameters: integer(env, 'MAX_QUERY_PARAMETERS', 256, 8),
      xmlDepth: integer(env, 'MAX_XML_DEPTH', 100, 8, 10_000),
      xmlElements: integer(env, 'MAX_XML_ELEMENTS', 200_000, 100),
    },
    subscriptions: {
      connections: integer(env, 'MAX_SUBSCRIBERS', 1_000, 1),
      perConnection: integer(env, 'MAX_SUBSCRIPTIONS_PER_CONNECTION', 100, 1),
      bufferedBytes: integer(env, 'MAX_SUBSCRIBER_BUFFER_BYTES', 4 * 1024 * 1024, 1_024),
      messageBytes: integer(env, 'MAX_SUBSCRIPTION_MESSAGE_BYTES', 64 * 1024, 256),
    },
    timeouts: {
      requestMs,
      headersMs: Math.min(integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 500), requestMs),
      keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100),
      shutdownMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0),
      startLockMs: integer(env, 'START_LOCK_TIMEOUT_MS', 30_000, 0),
    },
    catalog: {
      path: catalogPath(env.CATALOG_PATH || '/catalog'),
      adminDns: list(env, 'CATALOG_ADMIN_DNS'),
      publicDns: list(env, 'CATALOG_PUBLIC_DNS'),
      definitionsFile: env.CATALOG_DEFINITIONS_FILE || undefined,
      enforceDefinitions: flag(env, 'CATALOG_ENFORCE_DEFINITIONS'),
      resultTtlS: integer(env, 'CATALOG_RESULT_TTL_S', 3_600, 1, 7 * 24 * 3_600),
      cacheMb: integer(env, 'CATALOG_CACHE_MB', 64, 0, 65_536),
    },
    workers: workers(env, args),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    metrics: env.METRICS === undefined || env.METRICS === '' ? true : flag(env, 'METRICS'),
    federation: {
      registerUrls: urls(env, 'REGISTER_URLS'),
      communities: (env.REGISTER_COMMUNITIES ?? '').split(',').map((c) => c.trim()).filter(Boolean),
      intervalMs: integer(env, 'REGISTER_INTERVAL_MS', 3_600_000, 100),
      manifestLimit: integer(env, 'REGISTER_MANIFEST_LIMIT', 10, 1, 10_000),
      token: env.REGISTER_TOKEN || undefined,
      lookup: flag(env, 'LOOKUP'),
      federateTimeoutMs: integer(env, 'FEDERATE_TIMEOUT_MS', 2_000, 10, 600_000),
    },
  };
}

/** `https://app.example.org http://localhost:3000` (spaces or commas between), or `*`. */
function origins(env: Env, name: string): string[] {
  const items = (env[name] ?? '').split(/[\s,]+/).filter(Boolean);
  if (items.length === 1 && items[0] === '*') return items;
  return items.map((item) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(item);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== item.replace(/\/$/, '')) {
      throw new ConfigError(name, `"${item}" is not an origin such as https://app.example.org (scheme, host and port only), nor *`);
    }
    return parsed.origin;
  });
}

function catalogPath(path: string): string {
  if (!/^\/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]$/.test(path)) throw new ConfigError('CATALOG_PATH', 'a path such as /catalog');
  return path;
}

/** The base URL clients see: PUBLIC_URL, else the address the server listens on (`port`: the one it got). */
export function baseUrlOf(config: Config, port: number): string {
  return config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
}
