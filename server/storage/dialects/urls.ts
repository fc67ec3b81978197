import path from 'node:path';
import { parseHosts } from './postgres/hosts.js';

/** The engines a DATABASE_URL can name. */
export type EngineName = 'sqlite' | 'postgres';

interface EngineUrl {
  /** How the URL is written, for messages. */
  readonly form: string;
  accepts(url: string): boolean;
  /** The database as the start line and error messages name it, never with a password. */
  describe(url: string): string;
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
  },
};

const ENGINES = Object.keys(URLS) as EngineName[];

/** The engine `url` names, or undefined when it names none. */
export function engineOf(url: string): EngineName | undefined {
  return ENGINES.find((engine) => URLS[engine].accepts(url));
}

/** The forms of DATABASE_URL understood, for a message: `sqlite:<file> or postgres://…`. */
export const DATABASE_URL_FORMS = ENGINES.map((engine) => URLS[engine].form).join(' or ');

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
