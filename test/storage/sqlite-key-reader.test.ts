import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteKeyReader } from '../../server/storage/dialects/sqlite/key-reader.js';

/**
 * SqliteKeyReader.commits, the mark a cluster worker's read cache asks before it answers
 * (CurrentCache): it must move with every commit of any connection, and only then.
 */
describe('SQLite key reader: the commit mark', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'topocat-key-reader-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const mode of ['wal', 'delete'] as const) {
    it(`moves with each commit of another connection, and only then (journal_mode ${mode})`, async () => {
      const filename = path.join(dir, 'db.sqlite');
      const writer = new BetterSqlite3(filename);
      writer.pragma(`journal_mode = ${mode}`);
      writer.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)');
      const reader = new SqliteKeyReader(filename);
      try {
        const first = reader.commits();
        // In WAL mode the WAL-index header answers (a string), else PRAGMA data_version (a number).
        assert.equal(typeof first, mode === 'wal' ? 'string' : 'number');
        assert.equal(reader.oneNow('SELECT v FROM t WHERE k = ?', ['a']), undefined);
        assert.equal(reader.commits(), first, 'reads move nothing');
        const marks = new Set([first]);
        for (let i = 0; i < 20; i++) {
          writer.prepare('INSERT INTO t (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v').run('a', String(i));
          const mark = reader.commits();
          assert.ok(!marks.has(mark), `commit ${i} moved the mark`);
          marks.add(mark);
          assert.equal(reader.commits(), mark);
        }
        if (mode === 'wal') {
          // A checkpoint that lets the next writer start the WAL over, then that writer.
          writer.pragma('wal_checkpoint(TRUNCATE)');
          const before = reader.commits();
          writer.prepare('UPDATE t SET v = ? WHERE k = ?').run('after', 'a');
          assert.notEqual(reader.commits(), before, 'a commit into a restarted WAL moved the mark');
        }
      } finally {
        await reader.close();
        writer.close();
      }
    });
  }
});
