import assert from 'node:assert/strict';
import { CurrentCache } from '../../server/storage/current-cache.js';

/**
 * The read cache of a process that shares its database with others (cluster workers): it keeps
 * entries while the commit counter stands still, drops them when it moves, and answers nothing
 * from memory when the counter cannot be read. Through HTTP: test/server/workers.test.ts.
 */
describe('read cache beside other writers (commits)', () => {
  const version = { id: 'n1', ts: 1, doc: '{"id":"n1","ts":1}' };

  /** A cache whose counter says what `counter` holds, or throws when it holds an Error. */
  function cacheWith(counter: { value: number | Error }): CurrentCache {
    return new CurrentCache(1 << 20, () => {
      if (counter.value instanceof Error) throw counter.value;
      return counter.value;
    });
  }

  /** A cache with n1 read and kept at counter 7. */
  function kept(counter: { value: number | Error }): CurrentCache {
    const cache = cacheWith(counter);
    assert.equal(cache.get('nodes', 'n1'), undefined);
    cache.remember('nodes', version, cache.writes);
    return cache;
  }

  const cases: [string, { given: number | Error; want: typeof version | undefined }][] = [
    ['nobody committed: the entry answers', { given: 7, want: version }],
    ['someone committed: the entry is gone', { given: 8, want: undefined }],
    ['the counter cannot be read: nothing from memory, no error', { given: new Error('SQLITE_BUSY'), want: undefined }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const counter: { value: number | Error } = { value: 7 };
      const cache = kept(counter);
      counter.value = given;
      assert.deepEqual(cache.get('nodes', 'n1'), want);
    });
  }

  it('after a failed read of the counter, nothing kept before it answers again', () => {
    const counter: { value: number | Error } = { value: 7 };
    const cache = kept(counter);
    counter.value = new Error('SQLITE_BUSY');
    assert.equal(cache.get('nodes', 'n1'), undefined);
    counter.value = 7;
    assert.equal(cache.get('nodes', 'n1'), undefined, 'the counter may have moved and back meanwhile: dropped');
  });

  it('a read that overlapped a commit keeps nothing', () => {
    const counter: { value: number | Error } = { value: 7 };
    const cache = cacheWith(counter);
    assert.equal(cache.get('nodes', 'n1'), undefined);
    const writes = cache.writes;
    counter.value = 8;
    assert.equal(cache.get('nodes', 'other'), undefined);
    cache.remember('nodes', version, writes);
    assert.equal(cache.get('nodes', 'n1'), undefined);
  });

  it('a read that finds nothing does not ask the counter; one that finds its entry does', () => {
    let asked = 0;
    const cache = new CurrentCache(1 << 20, () => {
      asked++;
      return 7;
    });
    asked = 0;
    assert.equal(cache.get('nodes', 'n1'), undefined);
    assert.equal(asked, 0, 'a miss reads the database, which has every commit');
    cache.remember('nodes', version, cache.writes);
    assert.deepEqual(cache.get('nodes', 'n1'), version);
    assert.equal(asked, 1);
  });

  it('an entry read after a commit that no hit has seen yet goes with the rest at the next hit', () => {
    const counter: { value: number | Error } = { value: 7 };
    const cache = kept(counter);
    counter.value = 8;
    assert.equal(cache.get('nodes', 'n2'), undefined);
    cache.remember('nodes', { ...version, id: 'n2' }, cache.writes);
    assert.equal(cache.get('nodes', 'n2'), undefined, 'the counter moved since the last hit: everything is dropped');
    assert.equal(cache.get('nodes', 'n1'), undefined);
    cache.remember('nodes', version, cache.writes);
    assert.deepEqual(cache.get('nodes', 'n1'), version, 'kept again once the counter stands still');
  });
});
