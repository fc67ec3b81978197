import assert from 'node:assert/strict';
import type { InstanceList } from '../../server/federation/instance-list.js';
import { mergedArray, type Page } from '../../server/federation/merge.js';
import { keyOrder, orderKey, type OrderKey } from '../../server/federation/order.js';
import { parseQuery } from '../../server/query/parse.js';

/** An instance's list already read: each element in a buffer of its own, `next` never waits. */
class ReadList {
  key: OrderKey | undefined;
  bytes = Buffer.alloc(0);
  start = 0;
  end = 0;
  private at = -1;

  constructor(
    private readonly texts: readonly string[],
    private readonly sort: ReturnType<typeof parseQuery>['sort'],
  ) {
    this.next();
  }

  next(): boolean {
    const text = this.texts[++this.at];
    this.key = text === undefined ? undefined : orderKey(JSON.parse(text), this.sort);
    this.bytes = Buffer.from(text ?? '');
    this.end = this.bytes.length;
    return true;
  }

  async more(): Promise<void> {}

  cancel(): void {
    this.key = undefined;
  }
}

async function merged(lists: readonly (readonly string[])[], query: string, page: Page): Promise<string> {
  const sort = parseQuery(query, 100).sort;
  const chunks: Buffer[] = [];
  for await (const chunk of mergedArray(lists.map((texts) => new ReadList(texts, sort) as unknown as InstanceList), keyOrder(sort), page)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const long = (name: string, bytes: number): string => JSON.stringify({ name, pad: 'x'.repeat(bytes) });

/** The merged answer's bytes (merge.ts): one JSON array of the elements as given, in chunks of 64 KiB, an element longer than a chunk included. */
describe('the merged answer written from the elements\' bytes (issue 37)', function () {
  const cases: [string, { given: { lists: string[][]; page: Page }; want: string[] }][] = [
    ['two lists', { given: { lists: [['{"name":"a"}', '{"name":"c"}'], ['{"name":"b"}']], page: { skip: 0, limit: undefined } }, want: ['a', 'b', 'c'] }],
    ['skip and limit over the merged list', { given: { lists: [['{"name":"a"}', '{"name":"c"}'], ['{"name":"b"}', '{"name":"d"}']], page: { skip: 1, limit: 2 } }, want: ['b', 'c'] }],
    ['no list', { given: { lists: [], page: { skip: 0, limit: undefined } }, want: [] }],
    ['an element longer than a chunk, last', { given: { lists: [['{"name":"a"}', long('z', 70_000)], ['{"name":"b"}']], page: { skip: 0, limit: undefined } }, want: ['a', 'b', 'z'] }],
    ['an element longer than a chunk, first and alone', { given: { lists: [[long('a', 200_000)]], page: { skip: 0, limit: undefined } }, want: ['a'] }],
    ['elements filling chunks exactly and across', {
      given: { lists: [Array.from({ length: 300 }, (_, i) => long(`a${String(i).padStart(3, '0')}`, 400 + (i % 13) * 50)), [long('b', 65_000)]], page: { skip: 0, limit: undefined } },
      want: [...Array.from({ length: 300 }, (_, i) => `a${String(i).padStart(3, '0')}`), 'b'],
    }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, async () => {
      const text = await merged(given.lists, 'sort=name:1', given.page);
      assert.deepEqual((JSON.parse(text) as { name: string }[]).map((e) => e.name), want);
      // Every element's bytes as given.
      for (const list of given.lists) for (const element of list) if (want.includes((JSON.parse(element) as { name: string }).name)) assert.ok(text.includes(element));
    });
  }
});

/**
 * Without `sort`, the merge is in the default order that order.ts defines (rest-contract §5 and
 * §13, revised 2026-11-29: newest first), whichever direction that is: the lists are given in
 * that order, as every instance answers them, and the merged list must be in it too. Nothing
 * here names the direction, so the cases hold for a `ts` ascending or descending default.
 */
describe('the merge without sort follows order.ts\'s default order (rest-contract §13)', function () {
  const node = (id: string, ts: number): string => JSON.stringify({ id, ts, name: `${id}@${ts}` });
  const inDefaultOrder = (texts: string[]): string[] => {
    const order = keyOrder([]);
    return [...texts].sort((a, b) => order(orderKey(JSON.parse(a), []), orderKey(JSON.parse(b), [])));
  };
  const cases: [string, { given: string[][]; page: Page }][] = [
    ['interleaved ts', { given: [[node('a', 1), node('b', 4), node('c', 7)], [node('d', 2), node('e', 5)], [node('f', 3), node('g', 6), node('h', 8)]], page: { skip: 0, limit: undefined } }],
    ['one list after another', { given: [[node('a', 1), node('b', 2)], [node('c', 3), node('d', 4)]], page: { skip: 0, limit: undefined } }],
    ['equal ts, ordered by id', { given: [[node('a', 5), node('c', 5)], [node('b', 5), node('d', 5)]], page: { skip: 0, limit: undefined } }],
    ['skip and limit over the merged list', { given: [[node('a', 1), node('b', 4), node('c', 7)], [node('d', 2), node('e', 5)]], page: { skip: 1, limit: 3 } }],
    ['µs timestamps as instances write them', { given: [[node('a', 1_764_000_000_000_001), node('b', 1_764_000_000_000_003)], [node('c', 1_764_000_000_000_002)]], page: { skip: 0, limit: undefined } }],
  ];
  for (const [name, { given, page }] of cases) {
    it(name, async () => {
      const lists = given.map(inDefaultOrder);
      const all = inDefaultOrder(lists.flat());
      const want = all.slice(page.skip, page.limit === undefined ? undefined : page.skip + page.limit).map((t) => (JSON.parse(t) as { name: string }).name);
      const text = await merged(lists, '', page);
      assert.deepEqual((JSON.parse(text) as { name: string }[]).map((e) => e.name), want);
    });
  }
});
