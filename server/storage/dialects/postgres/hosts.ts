/**
 * libpq's URLs with several hosts (rest-contract §16), which node-postgres does not take:
 * `postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`, and the same hosts as
 * parameters, `postgres://user@/db?host=h1,h2&port=5432,5433`. Each host becomes a URL of its
 * own that pg-connection-string parses as it parses any single-host URL (so every other
 * parameter, `sslmode` included, means what it meant), and `target_session_attrs` says which
 * of them a connection may use.
 */

/** A host of the list, and the single-host URL that reaches it. */
export interface Host {
  /** `host:port`, as logs, /metrics and /health name it. */
  readonly name: string;
  readonly url: string;
}

/** libpq's values of `target_session_attrs`. */
const SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type SessionAttrs = (typeof SESSION_ATTRS)[number];

export interface HostList {
  readonly hosts: readonly Host[];
  /** `target_session_attrs`, or undefined when the URL does not say (libpq's `any`). */
  readonly sessionAttrs: SessionAttrs | undefined;
}

/** The parameters that make up the list: taken out of each host's own URL. */
const LIST_PARAMETERS = ['host', 'hostaddr', 'port', 'target_session_attrs'];

/** `[v6]:port`, `host:port`, `host`, `:port` (the default host). */
function splitHostPort(entry: string, where: string): { host: string; port: string | undefined } {
  const v6 = /^\[([^\]]+)\](?::(\d*))?$/.exec(entry);
  if (v6) return { host: v6[1]!, port: v6[2] || undefined };
  const colon = entry.lastIndexOf(':');
  if (colon < 0) return { host: entry, port: undefined };
  const port = entry.slice(colon + 1);
  if (!/^\d*$/.test(port)) throw new Error(`${where}: "${entry}" is not host:port`);
  return { host: entry.slice(0, colon), port: port || undefined };
}

function checkPort(port: string, where: string): string {
  const value = Number(port);
  if (!/^\d+$/.test(port) || value < 1 || value > 65_535) throw new Error(`${where}: port "${port}" is not a number from 1 to 65535`);
  return String(value);
}

/** A host as it is written in a URL's authority (IPv6 in brackets). */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The hosts `url` names, each with a single-host URL of its own. `where` names the setting in
 * messages (`DATABASE_URL`). A URL of one host, with no `target_session_attrs`, gives itself
 * back untouched.
 */
export function parseHosts(url: string, where: string): HostList {
  const scheme = /^(postgres(?:ql)?:\/\/)/.exec(url);
  if (!scheme) throw new Error(`${where}: not a postgres:// URL`);
  const rest = url.slice(scheme[1]!.length);
  // The authority ends at the first '/' or '?' (a password with either must be percent-encoded, as in any URL).
  const end = rest.search(/[/?]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const tail = end < 0 ? '' : rest.slice(end);
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? '' : authority.slice(0, at + 1);
  const hostPart = at < 0 ? authority : authority.slice(at + 1);
  const queryStart = tail.indexOf('?');
  const path = queryStart < 0 ? tail : tail.slice(0, queryStart);
  const parameters = new URLSearchParams(queryStart < 0 ? '' : tail.slice(queryStart + 1));

  const attrs = parameters.get('target_session_attrs') ?? undefined;
  if (attrs !== undefined && !(SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw new Error(`${where}: target_session_attrs "${attrs}" is none of ${SESSION_ATTRS.join(', ')}`);
  }
  const sessionAttrs = attrs as SessionAttrs | undefined;

  // Hosts from the authority, else from ?host= (and ?hostaddr=); ports from each entry, else ?port=.
  let entries: { host: string; port: string | undefined }[];
  if (hostPart !== '') {
    entries = hostPart.split(',').map((entry) => splitHostPort(entry, where));
  } else {
    const hosts = (parameters.get('host') ?? parameters.get('hostaddr') ?? '').split(',');
    entries = hosts.map((host) => ({ host, port: undefined }));
  }
  const ports = parameters.get('port')?.split(',');
  if (ports !== undefined) {
    if (ports.length !== 1 && ports.length !== entries.length) {
      throw new Error(`${where}: ${entries.length} hosts but ${ports.length} ports (give one port for all, or one per host)`);
    }
    entries = entries.map((entry, i) => ({ host: entry.host, port: entry.port ?? (ports.length === 1 ? ports[0] : ports[i]) }));
  }
  if (entries.length === 1 && sessionAttrs === undefined) return { hosts: [{ name: nameOf(entries[0]!.host, entries[0]!.port), url }], sessionAttrs };

  for (const name of LIST_PARAMETERS) parameters.delete(name);
  const hosts = entries.map(({ host, port }) => {
    if (host === '' && entries.length > 1) throw new Error(`${where}: an empty host in the list of ${entries.length}`);
    const checked = port === undefined ? undefined : checkPort(port, where);
    const own = new URLSearchParams(parameters);
    let authorityOf: string;
    if (host.startsWith('/')) {
      // A Unix socket directory: pg-connection-string takes it as ?host=.
      own.set('host', host);
      authorityOf = checked === undefined ? '' : `:${checked}`;
    } else {
      authorityOf = `${urlHost(host)}${checked === undefined ? '' : `:${checked}`}`;
    }
    const query = own.toString();
    return { name: nameOf(host, checked), url: `${scheme[1]!}${userinfo}${authorityOf}${path}${query === '' ? '' : `?${query}`}` };
  });
  return { hosts, sessionAttrs };
}

function nameOf(host: string, port: string | undefined): string {
  return `${host === '' ? 'localhost' : host}:${port ?? '5432'}`;
}

/** Whether the hosts of a DATABASE_URL with these attributes may be one that takes writes. */
export function writesAllowed(sessionAttrs: SessionAttrs | undefined): boolean {
  return sessionAttrs !== 'read-only' && sessionAttrs !== 'standby' && sessionAttrs !== 'prefer-standby';
}
