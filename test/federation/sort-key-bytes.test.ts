import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ArrayBytes } from '../../server/federation/array-bytes.js';
import { keyOrder, orderKey, type OrderKey } from '../../server/federation/order.js';
import { SortKeyReader } from '../../server/federation/sort-key-bytes.js';
import { parseQuery } from '../../server/query/parse.js';
import type { SortKey } from '../../server/query/syntax.js';

function sortOf(query: string): readonly SortKey[] {
  return parseQuery(query, 100).sort;
}

/** The elements of `list` read by ArrayBytes from chunks of `size` bytes: each one's text and key. */
function readList(list: string, sort: readonly SortKey[], size: number): { texts: string[]; keys: OrderKey[] } {
  const elements = new ArrayBytes(new SortKeyReader(sort));
  const bytes = Buffer.from(list, 'utf8');
  const texts: string[] = [];
  const keys: OrderKey[] = [];
  const take = (): void => {
    for (let k = 0; k < elements.count; k++) {
      texts.push(elements.buffer.toString('utf8', elements.starts[k], elements.ends[k]));
      keys.push(elements.keys[k]!);
    }
  };
  for (let i = 0; i < bytes.length; i += size) {
    elements.push(bytes.subarray(i, i + size));
    take();
    while (elements.unscanned) {
      elements.scanRest();
      take();
    }
  }
  elements.end();
  take();
  return { texts, keys };
}

/** The key of one element read from its bytes. */
function bytesKey(text: string, sort: readonly SortKey[]): OrderKey {
  const reader = new SortKeyReader(sort);
  const bytes = Buffer.from(text, 'utf8');
  const end = reader.read(bytes, 0, bytes.length);
  assert.equal(end, bytes.length, `read to the end of ${text}`);
  return reader.key;
}

/** The indices of `keys` in the merged order (ties: the earlier first, as the merge places them). */
function ordered(keys: readonly OrderKey[], sort: readonly SortKey[]): number[] {
  const order = keyOrder(sort);
  return keys.map((_, i) => i).sort((a, b) => order(keys[a]!, keys[b]!) || a - b);
}

/**
 * Issue 37: the merge reads each element's sort keys from its bytes (sort-key-bytes.ts) instead
 * of parsing it. For each case, the key read from the bytes is the one `orderKey(JSON.parse(…))`
 * makes (order.ts, the reference), so the order is the same; `want` is that order (the indices
 * of `elements`), written out to show the semantics the instances' databases share. Ties of the
 * sort keys go newest first, `ts` then `id` descending (rest-contract §5, revised 2026-11-29).
 */
describe('the sort keys read from an element\'s bytes are those of the parsed element (issue 37)', function () {
  const cases: [string, { given: { sort: string; elements: string[] }; want: number[] }][] = [
    ['strings bytewise (code points), escapes decoded', {
      given: { sort: 'sort=name:1', elements: ['{"name":"b"}', '{"name":"a\\u0062"}', '{"name":"é"}', '{"name":"😀"}', '{"name":"a\\uffff"}', '{"name":""}', '{"name":"\\ud83d\\ude00!"}'] },
      want: [5, 1, 4, 0, 2, 3, 6],
    }],
    ['an escaped quote and backslash in a string', {
      given: { sort: 'sort=name:1', elements: ['{"name":"a\\\\b"}', '{"name":"a\\"b"}', '{"name":"a"}', '{"name":"a\\/b\\n"}'] },
      want: [2, 1, 3, 0],
    }],
    ['numbers: fractions, exponents, negative zero, past 2^53', {
      given: { sort: 'sort=v:1', elements: ['{"v":1e2,"id":"a"}', '{"v":99.5,"id":"b"}', '{"v":-1.5E-3,"id":"c"}', '{"v":0,"id":"d"}', '{"v":-0,"id":"e"}', '{"v":1E+2,"id":"f"}', '{"v":12345678901234567890,"id":"g"}', '{"v":-7,"id":"h"}'] },
      want: [7, 2, 4, 3, 1, 5, 0, 6],
    }],
    ['missing and null first, numbers and booleans (as 0 and 1), then text', {
      given: { sort: 'sort=v:1', elements: ['{"v":"2","id":"a"}', '{"v":2,"id":"b"}', '{"v":true,"id":"c"}', '{"v":false,"id":"d"}', '{"v":null,"id":"e"}', '{"id":"f"}', '{"v":0.5,"id":"g"}'] },
      want: [5, 4, 3, 6, 2, 1, 0],
    }],
    ['descending: missing and null last', {
      given: { sort: 'sort=v:-1', elements: ['{"v":null,"id":"a"}', '{"v":"x","id":"b"}', '{"id":"c"}', '{"v":3,"id":"d"}'] },
      want: [1, 3, 2, 0],
    }],
    ['objects and arrays as a value: compared as their JSON text', {
      given: { sort: 'sort=v:1', elements: ['{"v":{"b" : 1, "a":[1, 2.50]},"id":"a"}', '{"v":[1,"\\u0041"],"id":"b"}', '{"v":{},"id":"c"}', '{"v":"[1,\\"A\\"]","id":"d"}'] },
      want: [3, 1, 0, 2],
    }],
    ['a nested path; nested objects and arrays elsewhere skipped', {
      given: {
        sort: 'sort=properties.group:1',
        elements: ['{"x":{"properties":{"group":"a"}},"properties":{"group":"c"}}', '{"properties":{"y":[{"group":"a"}],"group":"b"}}', '{"a":[[{"properties":{"group":"0"}}]],"properties":{}}'],
      },
      want: [2, 1, 0],
    }],
    ['a key inside a string is not a key', {
      given: { sort: 'sort=name:1', elements: ['{"description":"\\"name\\":\\"a\\"","name":"z"}', '{"name":"y","d":"{\\"name\\":\\"zz\\"}"}'] },
      want: [1, 0],
    }],
    ['duplicate keys: the last wins, a later object replaces an earlier one whole', {
      given: {
        sort: 'sort=name:1,properties.group:1',
        elements: ['{"name":"z","name":"a","properties":{"group":2}}', '{"name":"a","properties":{"group":1},"properties":{"other":0}}', '{"name":"a","properties":{"group":3,"group":0}}'],
      },
      want: [1, 2, 0],
    }],
    ['a path through a non-object (text, null, a number) is missing', {
      given: { sort: 'sort=properties.group:1', elements: ['{"properties":{"group":"a"},"id":"a"}', '{"properties":"group","id":"b"}', '{"properties":null,"id":"c"}', '{"properties":5,"id":"d"}'] },
      want: [3, 2, 1, 0],
    }],
    ['a path through an array: as JavaScript reads it (an index, `length`)', {
      given: { sort: 'sort=ports.1.href:1,ports.length:1', elements: ['{"ports":[{"href":"x"},{"href":"b"}]}', '{"ports":[{"href":"a"},{"href":"a"},{}]}', '{"ports":[]}'] },
      want: [2, 1, 0],
    }],
    ['a key spelled with escapes is the same key', {
      given: { sort: 'sort=name:1', elements: ['{"n\\u0061me":"b"}', '{"name":"c"}', '{"nam\\u0065":"a","x":1}'] },
      want: [2, 0, 1],
    }],
    ['whitespace around every token', {
      given: { sort: 'sort=properties.group:1', elements: ['{ "properties" :\n\t{ "group" : "b" } ,\r\n "id" : "x" }', '{"properties":{"group":"a"}}'] },
      want: [1, 0],
    }],
    ['a key named like an Object.prototype member: as JavaScript reads it (`constructor` a function, its `name` then missing)', {
      given: { sort: 'sort=constructor.name:1', elements: ['{"constructor":{"name":"Z"},"id":"a"}', '{"id":"b"}', '{"constructor":{"name":"A"},"id":"c"}', '{"constructor":{},"id":"d"}'] },
      want: [3, 1, 2, 0],
    }],
    // Newest first, as every list (rest-contract §5 and §13, revised 2026-11-29; was ts, then id, ascending).
    ['no sort: ts, then id, descending (missing last)', {
      given: { sort: '', elements: ['{"ts":2,"id":"a"}', '{"id":"b","ts":1}', '{"ts":1,"id":"a"}', '{"id":"0"}'] },
      want: [0, 1, 2, 3],
    }],
    ['ts and id, descending, break ties of the sort keys', {
      given: { sort: 'sort=name:-1', elements: ['{"name":"a","ts":5,"id":"x"}', '{"name":"a","ts":5,"id":"w"}', '{"name":"b","ts":9,"id":"z"}', '{"name":"a","ts":4,"id":"z"}'] },
      want: [2, 0, 1, 3],
    }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const sort = sortOf(given.sort);
      const parsed = given.elements.map((text) => orderKey(JSON.parse(text), sort));
      const read = given.elements.map((text) => bytesKey(text, sort));
      assert.deepEqual(read, parsed);
      assert.deepEqual(ordered(read, sort), want);
      assert.deepEqual(ordered(parsed, sort), want);
    });
  }

  it('elements that are not objects: parsed', () => {
    const sort = sortOf('sort=length:1');
    for (const text of ['"text"', '[1,2]', '3', 'null', 'true']) assert.deepEqual(readList(`[${text}]`, sort, 2).keys, [orderKey(JSON.parse(text), sort)], text);
  });

  it('a missing key named like an Object.prototype member: what a parsed object inherits (a function; the order cannot compare it, as before)', () => {
    const sort = sortOf('sort=constructor:1,toString:1');
    assert.deepEqual(bytesKey('{"id":"a"}', sort), [Object, Object.prototype.toString, undefined, 'a']);
    assert.deepEqual(bytesKey('{"id":"a"}', sort), orderKey(JSON.parse('{"id":"a"}'), sort));
  });

  it('any JSON object, any sort path: the key parsing makes (property)', () => {
    const field = fc.constantFrom('a', 'b', 'id', 'ts', 'a.b', 'b.a', 'a.0', 'a.length', 'toString');
    const sample = fc.dictionary(fc.constantFrom('a', 'b', 'id', 'ts', 'c', 'n\u00e9'), fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 3 }), sample, fc.boolean(), (fields, object, spaced) => {
        const sort = sortOf(`sort=${fields.map((f) => `${f}:1`).join(',')}`);
        const text = JSON.stringify(object, null, spaced ? 1 : undefined);
        assert.deepEqual(bytesKey(text, sort), orderKey(JSON.parse(text), sort));
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * The list as ArrayBytes reads it: the same elements (their bytes as sent) and keys whatever
 * the chunks, and refused where JSON.parse refuses it.
 */
describe('a JSON array read from byte chunks (issue 37)', function () {
  const list = '\ufeff [ {"name":"a","s":"\\"]}[{,"} ,\n{"name":"é😀","n":[1,{"x":[]}]},{"name":"b\\\\"} ,{}, {"id":"\\u0041"} ] \n';

  it('the same elements and keys for every chunk size', () => {
    const sort = sortOf('sort=name:1');
    const want = (JSON.parse(list.slice(1)) as unknown[]).map((element) => orderKey(element, sort));
    for (let size = 1; size <= list.length + 1; size++) {
      const { texts, keys } = readList(list, sort, size);
      assert.deepEqual(texts.map((t) => JSON.parse(t)), JSON.parse(list.slice(1)), `chunks of ${size}`);
      assert.deepEqual(keys, want, `chunks of ${size}`);
    }
    assert.deepEqual(readList(list, sort, 7).texts[0], '{"name":"a","s":"\\"]}[{,"}');
  });

  it('a long list in chunks of many elements (the rest of a chunk read in place after the element the chunk before cut), and of elements longer than a chunk', () => {
    const sort = sortOf('sort=name:1');
    const objects = Array.from({ length: 400 }, (_, i) => ({ name: `n${i}`, pad: 'x'.repeat(i % 7 === 0 ? 9000 + i : (i * 37) % 900), s: '"]}' }));
    const list = JSON.stringify(objects, null, 1);
    for (const size of [4097, 5000, 9001, 20000, 65536]) {
      const { texts, keys } = readList(list, sort, size);
      assert.deepEqual(texts.map((t) => JSON.parse(t)), objects, `chunks of ${size}`);
      assert.deepEqual(keys, objects.map((o) => orderKey(o, sort)), `chunks of ${size}`);
    }
  });

  it('an empty list, and one of scalars', () => {
    assert.deepEqual(readList(' [ ] ', [], 1).texts, []);
    assert.deepEqual(readList('[1,"x",null,[]]', [], 3).texts, ['1', '"x"', 'null', '[]']);
  });

  it('refused: not an array', () => {
    for (const text of ['{"a":1}', '"[1]"', '1']) assert.throws(() => readList(text, [], 1), SyntaxError, text);
  });

  const refused: [string, string][] = [
    ['a trailing comma', '[1,]'],
    ['an empty element', '[,1]'],
    ['two values without a comma', '[1 2]'],
    ['a key without a colon', '[{"a" 1}]'],
    ['a key that is not a string', '[{a:1}]'],
    ['a trailing comma in an object', '[{"a":1,}]'],
    ['an unknown literal', '[{"a":tru}]'],
    ['a leading zero', '[01]'],
    ['a fraction without digits', '[1.]'],
    ['an exponent without digits', '[{"a":1e}]'],
    ['a control character in a string', '["a\u0001"]'],
    ['a bad escape', '["\\q"]'],
    ['a bad \\u escape', '["\\u12g4"]'],
    ['mismatched brackets', '[{"a":[1}]]'],
    ['text after the end', '[1] x'],
    ['ended early', '[{"a":1}'],
    ['ended early, inside a string', '["abc'],
    ['nothing', ''],
  ];
  for (const [name, text] of refused) {
    it(`refused as JSON.parse refuses it: ${name}`, () => {
      assert.throws(() => JSON.parse(text), SyntaxError);
      for (const size of [1, 3, 64]) assert.throws(() => readList(text, sortOf('sort=a:1'), size), SyntaxError, `chunks of ${size}`);
    });
  }
});
