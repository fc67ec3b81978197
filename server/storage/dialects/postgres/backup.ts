import { spawn } from 'node:child_process';
import { rename, rm, stat } from 'node:fs/promises';
import type { Backup, BackupResult } from '../../contract/adapter.js';
import type { PostgresSettings } from './settings.js';
import type { WritableHost } from './primary.js';

/**
 * PostgreSQL's own way: pg_dump, whose dump is one snapshot of the database (a repeatable-read
 * transaction) taken while servers keep writing, in its custom format for pg_restore. Only the
 * schema of `?schema=` when the URL names one. The dump is written to `<destination>.partial`
 * and renamed once pg_dump has succeeded.
 */
export class PostgresBackup implements Backup {
  constructor(
    private readonly settings: PostgresSettings,
    private readonly primary: WritableHost,
  ) {}

  exists(): boolean {
    // pg_dump says so itself when the database is not there.
    return true;
  }

  async copy(destination: string): Promise<BackupResult> {
    const partial = `${destination}.partial`;
    const { schema } = this.settings;
    const args = ['--format=custom', `--file=${partial}`, ...(schema !== undefined ? [`--schema=${schema}`] : []), `--dbname=${await this.primary.url()}`];
    try {
      await run('pg_dump', args);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    await rename(partial, destination);
    return {
      file: destination,
      bytes: (await stat(destination)).size,
      restore: `into an empty database: pg_restore --dbname=<its URL, without ?schema=> ${destination}${schema !== undefined ? ` (it creates the schema ${schema})` : ''}; or over this one: pg_restore --clean --if-exists --dbname=<URL> ${destination}; then start the server on it`,
    };
  }
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(`${command} is not installed: install PostgreSQL's client tools (of the server's major version or newer)`) : error),
    );
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${String(code)}): ${stderr.trim().slice(0, 1000)}`))));
  });
}
