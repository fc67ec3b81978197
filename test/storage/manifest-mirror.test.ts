import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { MANIFEST_LIMIT_SETTING, MANIFEST_STATE, MANIFEST_TABLE } from '../../server/storage/manifest-sql.js';
import { ManifestMirror, NEWS_FUNCTION } from '../../server/storage/dialects/sqlite/manifest-mirror.js';
import { FIELD_FUNCTION, fieldOf, sqliteManifests } from '../../server/storage/dialects/sqlite/manifests.js';

const GENERATION = '5b0c1d9e-7a55-4a3f-9c43-0d7e2f6a1b11';

/** The tables the triggers read and write, as the migrations make them (the columns that matter). */
const SCHEMA = [
  'CREATE TABLE resource_current (kind TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (kind, id))',
  `CREATE TABLE ${MANIFEST_TABLE} (kind TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, field, value))`,
  'CREATE TABLE topocat_service (name TEXT PRIMARY KEY, value TEXT)',
];

interface Side {
  readonly db: BetterSqlite3.Database;
  readonly mirror?: ManifestMirror;
  answers: { news: number; known: number };
}

/**
 * A database with the manifest triggers: of a generation, which ask a ManifestMirror first, or
 * (no generation) as migration 0014 made them, which walk every document.
 */
function open(file: string, generation: string | undefined, limit: number): Side {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  for (const statement of SCHEMA) db.exec(statement);
  db.prepare('INSERT INTO topocat_service (name, value) VALUES (?, ?), (?, ?)').run(MANIFEST_LIMIT_SETTING, String(limit), MANIFEST_STATE, generation === undefined ? 'kept' : `kept ${generation}`);
  db.function(FIELD_FUNCTION, { deterministic: true }, fieldOf);
  const side: Side = { db, answers: { news: 0, known: 0 } };
  if (generation !== undefined) {
    const mirror = new ManifestMirror(file);
    db.function(NEWS_FUNCTION, (g: unknown, kind: unknown, doc: unknown) => {
      const answer = mirror.news(g, kind, doc);
      side.answers[answer === 1 ? 'news' : 'known']++;
      return answer;
    });
    Object.assign(side, { mirror });
  }
  for (const statement of sqliteManifests.create(generation)) db.exec(statement);
  return side;
}

function sets(side: Side): string[] {
  return (side.db.prepare(`SELECT kind || ' ' || field || ' ' || value AS row FROM ${MANIFEST_TABLE} ORDER BY kind, field, value`).pluck().all() as string[]);
}

/** Keys that json_tree names in ways a plain walk might not: quoted, bracketed, dotted, long, left out. */
const KEY = fc.oneof(
  { arbitrary: fc.constantFrom('id', 'ts', 'name', 'name', 'name', 'properties', 'properties'), weight: 8 },
  { arbitrary: fc.constantFrom('a.b', 'x[1]', 'q"k', 'back\\slash', '$schema', '', 'é', 'sp ace', '[0]', 'k'.repeat(520)), weight: 2 },
  { arbitrary: fc.string({ maxLength: 3 }), weight: 1 },
);
/** Mostly values that recur (a write that brings nothing new is the common case); now and then one json_tree reads its own way. */
const LEAF = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', true, 1, 7, 39.17, -86.52), weight: 12 },
  { arbitrary: fc.constantFrom('é', '\u0000', '"q"', '\ud800', '\ud83d\ude00', 'x'.repeat(300), false, null, 0, -0, 2 ** 53, 1.5, 0.1 + 0.2, 1e21, -7), weight: 3 },
  { arbitrary: fc.string({ maxLength: 4, unit: 'binary' }), weight: 1 },
  { arbitrary: fc.integer({ min: -3, max: 3 }), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
);
const VALUE = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, LEAF, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(KEY, tie('value'), { maxKeys: 3 })),
})).value;
const DOCUMENT = fc.dictionary(KEY, VALUE, { minKeys: 1, maxKeys: 5 });
/** Mostly as JSON.stringify writes it (every write path stores that form); sometimes spaced, or with a number as `2.0`. */
const TEXT = fc.tuple(DOCUMENT, fc.constantFrom('stored', 'stored', 'stored', 'stored', 'stored', 'spaced', 'real')).map(([doc, form]) => {
  const text = JSON.stringify(doc);
  if (form === 'spaced') return JSON.stringify(doc, null, 1);
  if (form === 'real') return text.replace(/:(-?\d+)([,}\]])/, ':$1.0$2');
  return text;
});
/** One write: an insert or a change of a resource of a kind, committed or rolled back, alone or with the next. */
const WRITE = fc.record({
  kind: fc.constantFrom('nodes', 'ports'),
  id: fc.integer({ min: 0, max: 5 }),
  text: TEXT,
  end: fc.constantFrom('commit', 'commit', 'commit', 'rollback', 'with-next'),
  /** The text of an earlier write again (a re-POST, a PUT of the same values): the common case. */
  again: fc.boolean(),
});

describe('the manifest triggers ask a copy of the committed sets first (manifest-mirror.ts)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'topocat-manifest-mirror-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The property: whatever is written, the sets kept by the triggers that ask first equal those
   * kept by the triggers that walk every document. Both sides run the same writes, commits and
   * rollbacks; the sets are compared after each commit.
   */
  it('keeps exactly the sets that walking every document keeps', () => {
    let asked = { news: 0, known: 0 };
    let run = 0;
    fc.assert(
      fc.property(fc.array(WRITE, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 4 }), (writes, limit) => {
        run++;
        const fast = open(path.join(dir, `fast-${run}.sqlite`), GENERATION, limit);
        const walk = open(path.join(dir, `walk-${run}.sqlite`), undefined, limit);
        try {
          let open_ = false;
          const texts: string[] = [];
          for (const write of writes) {
            const text = write.again && texts.length > 0 ? texts[write.id % texts.length]! : write.text;
            texts.push(text);
            for (const side of [fast, walk]) {
              if (!open_) side.db.exec('BEGIN');
              side.db.prepare('INSERT INTO resource_current (kind, id, doc) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET doc = excluded.doc').run(write.kind, String(write.id), text);
              if (write.end === 'commit') side.db.exec('COMMIT');
              if (write.end === 'rollback') side.db.exec('ROLLBACK');
            }
            open_ = write.end === 'with-next';
            if (!open_) assert.deepEqual(sets(fast), sets(walk));
          }
          if (open_) for (const side of [fast, walk]) side.db.exec('COMMIT');
          assert.deepEqual(sets(fast), sets(walk));
          asked = { news: asked.news + fast.answers.news, known: asked.known + fast.answers.known };
        } finally {
          fast.mirror?.close();
          fast.db.close();
          walk.db.close();
        }
      }),
      { numRuns: 150 },
    );
    // Not a property that holds by never answering "known": the copy answered it, often. How
    // often depends on the generated writes (seven runs of 150 properties, 2026-11-28: 71 to 143
    // known against 744 to 822 news; the bound of one in ten failed once at 71 against 774), so
    // the bound is far below that, and far above never.
    assert.ok(asked.known > asked.news / 25, `the copy answered known ${asked.known} times, news ${asked.news}`);
  });

  /** Sequences where a plain walk of the parsed document could name or write a leaf otherwise than json_tree: each must keep what walking keeps. */
  const CASES: [string, { readonly texts: readonly string[] }][] = [
    ['a top-level id that is an object: its leaves are fields', { texts: ['{"id":"1","name":"a"}', '{"id":{"name":"a"},"name":"a"}'] }],
    ['a ts in an array of objects', { texts: ['{"name":"a"}', '{"name":"a","ts":[{"x":"a"}]}'] }],
    ['a key with a position in it', { texts: ['{"x":"a","name":"a"}', '{"x[1]":"b","name":"a"}', '{"x[1]":"a","name":"a"}'] }],
    ['a key with a quote', { texts: ['{"qk":"a"}', '{"q\\"k":"b"}', '{"q\\"k":"a"}'] }],
    ['a key with a backslash', { texts: ['{"k":"a"}', '{"b\\\\s":"a"}', '{"b\\\\s":"a"}'] }],
    ['a dotted key and a nested one name the same field', { texts: ['{"a":{"b":"v"}}', '{"a.b":"v"}', '{"a.b":"w"}', '{"a":{"b":"w"}}'] }],
    ['a number written as a real', { texts: ['{"n":1}', '{"n":1.0}', '{"n":1e0}'] }],
    ['minus zero', { texts: ['{"n":0}', '{"n":-0}'] }],
    ['integers past 2^53, and reals that print otherwise', { texts: ['{"n":9007199254740993}', '{"n":9007199254740993}', '{"n":0.30000000000000004}', '{"n":0.3}', '{"n":1e21}', '{"n":1e-7}', '{"n":0.00001}', '{"n":12345678901234567890}'] }],
    ['reals, as coordinates are', { texts: ['{"lat":39.17,"lon":-86.52}', '{"lat":39.17,"lon":-86.52}', '{"lat":39.170000000000002,"lon":-86.52}', '{"lat":0.1,"lon":100.25}'] }],
    ['a value past the longest kept', { texts: ['{"v":"a"}', `{"v":"${'x'.repeat(300)}"}`, '{"v":"b"}'] }],
    ['a field past the longest kept in UTF-16 units but not in characters', { texts: ['{"name":"a"}', `{"name":"a","${'😀'.repeat(300)}":"a"}`, `{"name":"a","${'😀'.repeat(300)}":"b"}`] }],
    ['a field past the longest kept in characters', { texts: ['{"name":"a"}', `{"name":"a","${'k'.repeat(600)}":"a"}`] }],
    ['strings json_quote writes with escapes', { texts: ['{"s":"a\\u0000b"}', '{"s":"a\\u0000b"}', '{"s":"tab\\there"}', '{"s":"é"}', '{"s":"\\u00e9"}'] }],
    ['half a surrogate pair', { texts: ['{"s":"\\ud800"}', '{"s":"\\ud800"}'] }],
    ['booleans, nulls, empty objects and arrays', { texts: ['{"b":true,"n":null,"o":{},"a":[]}', '{"b":false,"n":null,"o":{"x":null},"a":[[]]}', '{"b":true}'] }],
  ];
  for (const [name, { texts }] of CASES) {
    it(`keeps what walking keeps: ${name}`, () => {
      for (const limit of [1, 10]) {
        const fast = open(path.join(dir, `fast-${limit}.sqlite`), GENERATION, limit);
        const walk = open(path.join(dir, `walk-${limit}.sqlite`), undefined, limit);
        try {
          for (const [i, text] of texts.entries()) {
            for (const side of [fast, walk]) side.db.prepare('INSERT INTO resource_current (kind, id, doc) VALUES (?, ?, ?)').run('nodes', String(i), text);
            assert.deepEqual(sets(fast), sets(walk), `after ${text}, limit ${limit}`);
          }
        } finally {
          fast.mirror?.close();
          fast.db.close();
          walk.db.close();
        }
      }
    });
  }

  it('answers known for a document whose values are all kept, and news again in a new generation', () => {
    const file = path.join(dir, 'db.sqlite');
    const side = open(file, GENERATION, 2);
    try {
      const write = (id: string, doc: object): void => void side.db.prepare('INSERT INTO resource_current (kind, id, doc) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET doc = excluded.doc').run('nodes', id, JSON.stringify(doc));
      write('a', { id: 'a', name: 'one', properties: { geni: { slice: 's' } } });
      write('b', { id: 'b', name: 'one', properties: { geni: { slice: 's' } } });
      assert.deepEqual(side.answers, { news: 1, known: 1 });
      write('c', { id: 'c', name: 'two', properties: { geni: { slice: 's' } } });
      write('d', { id: 'd', name: 'three', properties: { geni: { slice: 's' } } });
      // Past the limit of 2: `*`, and any name is known from then on.
      write('e', { id: 'e', name: 'four', properties: { geni: { slice: 's' } } });
      write('f', { id: 'f', name: 'five', properties: { geni: { slice: 's' } } });
      assert.deepEqual(side.answers, { news: 3, known: 3 });
      assert.ok(sets(side).includes('nodes name *'));

      // A new generation: the rows deleted and the triggers made again (manifest-upkeep.ts turnOn).
      const next = '00000000-0000-4000-8000-000000000001';
      side.db.transaction(() => {
        for (const statement of sqliteManifests.drop) side.db.exec(statement);
        for (const statement of sqliteManifests.create(next)) side.db.exec(statement);
        side.db.exec(`DELETE FROM ${MANIFEST_TABLE}`);
        side.db.prepare('UPDATE topocat_service SET value = ? WHERE name = ?').run(`building ${next}`, MANIFEST_STATE);
      })();
      write('g', { id: 'g', name: 'one', properties: { geni: { slice: 's' } } });
      assert.deepEqual(sets(side), ['nodes name "one"', 'nodes properties.geni.slice "s"']);
    } finally {
      side.mirror?.close();
      side.db.close();
    }
  });
});
