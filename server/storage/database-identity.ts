import path from 'node:path';

/**
 * The database of a DATABASE_URL as the start line and error messages name it, never with a
 * password: `sqlite /abs/path/topocat.sqlite`, or `postgresql user@host:port/database` (with its
 * `?schema=`).
 */
export function describeDatabase(url: string): string {
  if (url.startsWith('sqlite:')) return `sqlite ${path.resolve(url.replace(/^sqlite:(\/\/)?/, ''))}`;
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    const schema = parsed.searchParams.get('schema');
    return `postgresql ${user}${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}${schema ? ` schema ${schema}` : ''}`;
  } catch {
    return 'postgresql (an address that does not parse)';
  }
}
