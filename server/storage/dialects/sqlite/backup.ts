import { existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import type { Backup, BackupResult } from '../../contract/adapter.js';

/** Pages per step after the first: all of them, so the copy is one snapshot (see copy). */
const ALL_PAGES = 0x7fffffff;

/**
 * SQLite's online backup API (sqlite.org/backup.html) through better-sqlite3, on a read-only
 * connection of its own. The pages are copied in one step, inside one read transaction: in WAL
 * mode that transaction blocks no writer, and the copy is the database as of its start. (In the
 * API's default steps of 100 pages, a write by another connection between two steps restarts the
 * copy from the first page, so under steady writes it might never finish.) The copy is written
 * to `<destination>.partial`, checked (PRAGMA quick_check) and only then renamed.
 */
export class SqliteBackup implements Backup {
  constructor(private readonly filename: string) {}

  exists(): boolean {
    return existsSync(this.filename);
  }

  async copy(destination: string): Promise<BackupResult> {
    const partial = `${destination}.partial`;
    await rm(partial, { force: true });
    const source = new BetterSqlite3(this.filename, { readonly: true, fileMustExist: true });
    try {
      await source.backup(partial, { progress: () => ALL_PAGES });
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    } finally {
      source.close();
    }
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed its check: ${String(check)}`);
      // A backup is one file: no -wal beside it to carry along.
      copy.pragma('journal_mode = DELETE');
    } catch (error) {
      copy.close();
      await rm(partial, { force: true });
      throw error;
    }
    copy.close();
    await rename(partial, destination);
    return {
      file: destination,
      bytes: (await stat(destination)).size,
      restore: `stop the server; delete the database file and its -wal and -shm files and copy ${destination} in its place (or set DATABASE_URL=sqlite:<a copy of it>); start the server`,
    };
  }
}
