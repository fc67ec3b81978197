import assert from 'node:assert/strict';
import fc from 'fast-check';
import { QueryError } from '../../server/query/errors.js';
import { matches } from '../../server/query/match.js';
import type { Condition as SyntaxCondition, Term, ValueType } from '../../server/query/syntax.js';
import { typeConditions, type FieldTable } from '../../server/query/typing.js';
import type { Condition } from '../../server/query/tree.js';
import { openDatabase } from '../../server/storage/database.js';
import type { Database } from '../../server/storage/contract/database.js';
import { ResourceStore } from '../../server/storage/resource-store.js';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';

/** Field names: ordinary ones, one that looks like an index, and one Object.prototype has. */
const KEYS = ['a', 'b', 's', 'n', 'list', 'o', 'x', '0', 'constructor'] as const;

/** What the schema of the kind under test declares; the rest of a document is open. */
const FIELDS: FieldTable = {
  s: { type: 'string', arrays: [] },
  n: { type: 'number', arrays: [] },
  b: { type: 'boolean', arrays: [] },
  list: { type: 'string', arrays: [0] },
  'o.x': { type: 'string', arrays: [] },
  'a.x': { type: 'integer', arrays: [0] },
};

/** Strings that order differently by UTF-16 unit than by code point, and some plain ones. */
const strings = fc.constantFrom('', 'a', 'b', 'ab', 'B', '5', '10', 'é', '\u{1F600}', '\uE000', 'true', 'x y');
const numbers = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(0.5, -1.25, 1e-3, 2 ** 40, -0, 1e300, -1e300));
const scalars = fc.oneof(strings, numbers, fc.boolean(), fc.constant(null));

const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalars,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const documents = fc.array(fc.dictionary(fc.constantFrom(...KEYS), json, { maxKeys: 5 }), { minLength: 1, maxLength: 12 });

/** Every path in the documents (through lists, as the query language goes) and a value there. */
function leaves(docs: readonly unknown[]): { path: string[]; value: string | number | boolean }[] {
  const found: { path: string[]; value: string | number | boolean }[] = [];
  const walk = (value: unknown, path: string[]): void => {
    if (Array.isArray(value)) value.forEach((element) => walk(element, path));
    else if (value !== null && typeof value === 'object') for (const [key, member] of Object.entries(value)) walk(member, [...path, key]);
    else if (value !== null && path.length > 0) found.push({ path, value: value as string | number | boolean });
  };
  docs.forEach((doc) => walk(doc, []));
  return found;
}

const typeOf = (value: string | number | boolean): ValueType => (typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string');

/** Terms about the documents' own paths and values half of the time, so that queries do match. */
function termsFor(docs: readonly unknown[]): fc.Arbitrary<Term> {
  const known = leaves(docs);
  // UNIS's operators too (rest-contract §5): numeq is `eq=`; recfind= reads other resources
  // and has its own tests (test/rest/unis-operators.test.ts).
  // One entry per operator of the contract table (generator/model/http.ts): the compiler asks for a new one's.
  const drawn: Record<Term['operator'], boolean> = { eq: true, lt: true, lte: true, gt: true, gte: true, not: true, numeq: true, null: true, reg: true, recfind: false, exists: true };
  const operators = fc.constantFrom(...(Object.keys(drawn) as Term['operator'][]).filter((operator) => drawn[operator]));
  const randomPath = fc.oneof(
    fc.constantFrom(['s'], ['n'], ['b'], ['list'], ['o', 'x'], ['a', 'x'], ['id'], ['ts']),
    fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 }),
  );
  const randomValue: fc.Arbitrary<{ text: string; type?: ValueType }> = fc.oneof(
    strings.map((text) => ({ text })),
    fc.tuple(numbers, fc.constantFrom<ValueType>('number', 'integer')).map(([n, type]) => ({ text: String(n), type })),
    fc.boolean().map((b) => ({ text: String(b), type: 'boolean' as ValueType })),
    strings.map((text) => ({ text, type: 'string' as ValueType })),
  );
  // A document's value, written typed or untyped (untyped, typing decides what it compares as).
  const knownValue = (value: string | number | boolean) => fc.constantFrom<{ text: string; type?: ValueType }>({ text: String(value) }, { text: String(value), type: typeOf(value) });
  const fromDocs =
    known.length === 0 ? [] : [fc.constantFrom(...known).chain(({ path, value }) => fc.record({ field: fc.constant(path), operator: operators, values: fc.array(fc.oneof(knownValue(value), randomValue), { minLength: 1, maxLength: 3 }) }))];
  return fc.oneof(fc.record({ field: randomPath, operator: operators, values: fc.array(randomValue, { minLength: 1, maxLength: 3 }) }), ...fromDocs).map(({ field, operator, values }) => ({
    field,
    operator,
    parameter: field.join('.'),
    values:
      operator === 'null'
        ? [{ value: '' }]
        : operator === 'exists'
          ? [{ value: values[0]!.text.length % 2 === 0, type: 'boolean' as ValueType }]
          : operator === 'reg'
            ? [{ value: PATTERNS[values[0]!.text.length % PATTERNS.length]! }]
            : (operator === 'eq' ? values : values.slice(0, 1)).map(({ text, type }) =>
                type === undefined ? { value: text } : { value: type === 'boolean' ? text === 'true' : type === 'string' ? text : Number(text), type },
              ),
  }));
}

/** Patterns for reg=: letter case, anchors, classes, a newline-free `.`, non-ASCII. */
const PATTERNS = ['a', '^a', 'b$', '^$', '[0-9]', 'é', '^.$', 'x\\sy', 'TRUE', '\\d+', '^[a-c]+$', '\\bx', 'y\\b', '1|a', '(?:ab)+', '\\x'];

const cases = documents.chain((docs) =>
  fc.tuple(fc.constant(docs), fc.array(fc.array(fc.array(termsFor(docs), { minLength: 1, maxLength: 2 }).map((list): SyntaxCondition => ({ terms: list })), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 })),
);

/**
 * One query language, two evaluators: for random documents and random queries, the SQL the
 * storage runs and the matcher that filters events select the same resources.
 */
describe(`query language: the SQL compiler and the matcher agree (${engine})`, function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: Database;
  let store: ResourceStore;
  let round = 0;
  before(async () => {
    database = await createTestDatabase();
    db = await openDatabase({ url: database.url, poolMax: 2 });
    store = new ResourceStore(db);
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it('select the same resources for every document set and query', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async ([docs, querySet]) => {
        const kind = `things${round++}`;
        const stored = await store.insert(docs.map((doc, i) => ({ kind, id: `r${i}`, clientId: true, build: (id: string, ts: number) => ({ ...doc, id, ts }) })));
        for (const conditions of querySet) {
          let typed: Condition[];
          try {
            typed = typeConditions(conditions, FIELDS);
          } catch (error) {
            if (error instanceof QueryError) continue;
            throw error;
          }
          const fromSql: string[] = [];
          for await (const row of store.list(kind, { conditions: typed, sort: [] })) fromSql.push(row.id);
          const inMemory = stored.filter((r) => matches({ id: r.id, ts: r.ts, document: JSON.parse(r.doc) }, typed)).map((r) => r.id);
          assert.deepEqual(fromSql.sort(), inMemory.sort(), `${JSON.stringify(conditions)} over ${JSON.stringify(docs)}`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
