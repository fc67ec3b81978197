import path from 'node:path';
import { parseHosts } from './postgres/hosts.js';

/** The engines a DATABASE_URL can name. */
export type EngineName = 'sqlite' | 'postgres';

interface EngineUrl {
  /** How the URL is written, for messages. */
  readonly form: string;
  /** The file an embedded engine's database is, from its URL alone; absent for an engine served over the network. */
  file?(url: string): string;
  accepts(url: string): boolean;
  /** The database as the start line and error messages name it, never with a password. */
  describe(url: string): string;
  /**
   * Where streaming standbys can serve this engine's reads (DATABASE_READ_URLS): how the engine
   * and its standbys' URLs are named in a message. Absent where no standby can.
   */
  readonly standbys?: { readonly engine: string; readonly form: string };
}

/**
 * What each engine's DATABASE_URL looks like, known from the URL alone: no driver is loaded and
 * nothing is opened, so the configuration can check the setting (config.ts) before anything starts.
 */
const URLS: Record<EngineName, EngineUrl> = {
  sqlite: {
    form: 'sqlite:<file>',
    accepts: (url) => url.startsWith('sqlite:'),
    describe: (url) => `sqlite ${sqliteFileOf(url)}`,
    file: sqliteFileOf,
  },
  postgres: {
    form: 'postgres://user@host:port/database',
    accepts: (url) => /^postgres(ql)?:\/\//.test(url),
    describe(url) {
      try {
        // Several hosts (libpq's list, rest-contract §16) are named in turn: h1:5432,h2:5432.
        const { hosts } = parseHosts(url, 'DATABASE_URL');
        const parsed = new URL(hosts[0]!.url);
        const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
        const schema = parsed.searchParams.get('schema');
        return `postgresql ${user}${hosts.map((h) => h.name).join(',')}${parsed.pathname}${schema ? ` schema ${schema}` : ''}`;
      } catch {
        return 'postgresql (an address that does not parse)';
      }
    },
    standbys: { engine: 'PostgreSQL', form: 'postgres://' },
  },
};

const ENGINES = Object.keys(URLS) as EngineName[];

/** The engine `url` names, or undefined when it names none. */
export function engineOf(url: string): EngineName | undefined {
  return ENGINES.find((engine) => URLS[engine].accepts(url));
}

/** The forms of DATABASE_URL understood, for a message: `sqlite:<file> or postgres://…`. */
export const DATABASE_URL_FORMS = ENGINES.map((engine) => URLS[engine].form).join(' or ');

/** The DATABASE_URL of a server that is given none: the embedded engine's file under ./data. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/topocat.sqlite';

/** The engines whose reads standbys can serve. */
const WITH_STANDBYS = ENGINES.filter((engine) => URLS[engine].standbys !== undefined);

/**
 * What is wrong with `readUrls` (DATABASE_READ_URLS) as standbys of the database of `url`, for
 * the configuration's message; undefined when nothing is: each must be a URL of an engine whose
 * reads standbys serve, and so must `url`. A password is never shown.
 */
export function standbyUrlsProblem(url: string, readUrls: readonly string[]): string | undefined {
  const engine = engineOf(url);
  const forms = WITH_STANDBYS.map((e) => URLS[e].standbys!.form).join(' or ');
  for (const readUrl of readUrls) {
    const readEngine = engineOf(readUrl);
    if (readEngine === undefined || !WITH_STANDBYS.includes(readEngine)) return `each a ${forms} URL of a streaming standby, not "${readUrl.replace(/\/\/[^@/]*@/, '//***@')}"`;
  }
  if (readUrls.length > 0 && (engine === undefined || !WITH_STANDBYS.includes(engine))) return `standbys serve reads of a ${WITH_STANDBYS.map((e) => URLS[e].standbys!.engine).join(' or ')} DATABASE_URL only`;
  return undefined;
}

/**
 * The database of a DATABASE_URL as the start line and error messages name it, never with a
 * password: `sqlite /abs/path/topocat.sqlite`, or `postgresql user@host:port/database` (with its
 * `?schema=`). A URL of no known engine is described as PostgreSQL's that does not parse.
 */
export function describeDatabase(url: string): string {
  return URLS[engineOf(url) ?? 'postgres'].describe(url);
}

/** The file a `sqlite:` DATABASE_URL names, as an absolute path (from the working folder); nothing is opened or made. */
export function sqliteFileOf(url: string): string {
  return path.resolve(url.replace(/^sqlite:(\/\/)?/, ''));
}

/** The file the database of `url` is (absolute), for an embedded engine; undefined for one served over the network or of no known engine. */
export function databaseFileOf(url: string): string | undefined {
  const engine = engineOf(url);
  return engine === undefined ? undefined : URLS[engine].file?.(url);
}

/** The DATABASE_URL of a scratch database in `folder` (an import's dry-run stand-in): the embedded engine's file. */
export function scratchDatabaseUrl(folder: string): string {
  return `sqlite:${path.join(folder, 'empty.sqlite')}`;
}
