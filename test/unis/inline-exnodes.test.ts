import assert from 'node:assert/strict';
import { del, get, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { wire } from '../helpers/wire.js';

/**
 * `inline` as UNIS HEAD answers it (rest-contract §5, revised 2026-11-26): on `/exnodes`, each
 * exnode that is not a directory gets `extents`, the array of its extents
 * (`/extents?parent.href=<its selfRef>`). libdlt and dlt-web's exnode browser read files so
 * (dlt-web sends `?inline` through `querystring.stringify` as `inline=`, datalogistics/dlt-web@8eec5b2
 * `app/routes.js:384-405`, `app/exnodeApi.js:110`).
 */
describe('inline on /exnodes: each file with its extents (rest-contract §5)', function () {
  let server: RunningServer;
  let file: { id: string; selfRef: string };
  let directory: { id: string; selfRef: string };
  const extent = (parent: string, offset: number) => ({ location: `ibp://depot:6714/${offset}`, size: 10, offset, index: offset / 10, parent: { href: parent, rel: 'full' } });
  before(async () => {
    server = await startServer();
    directory = (await post(`${server.url}/exnodes`, { name: 'dir', mode: 'directory', size: 0, created: 1, modified: 1, parent: null })).body;
    file = (
      await post(`${server.url}/exnodes`, { name: 'f.bin', mode: 'file', size: 30, created: 1, modified: 1, parent: { href: directory.selfRef, rel: 'full' }, extents: [{ href: 'http://stale/extents/x', rel: 'full' }] })
    ).body;
    await post(`${server.url}/exnodes`, { name: 'empty.bin', mode: 'file', size: 0, created: 1, modified: 1, parent: null });
    // Stored out of order; one extent of another file.
    assert.equal((await post(`${server.url}/extents`, [extent(file.selfRef, 20), extent(file.selfRef, 0), extent(file.selfRef, 10), extent(directory.selfRef, 0)])).status, 201);
  });
  after(async () => {
    await server.stop();
  });

  it('by id, in UNIS form (inline=): the file\'s extents, by offset, in place of what it stored', async () => {
    const answer = await wire(server.url, { method: 'GET', target: `/exnodes/${file.id}?inline=`, headers: [['Connection', 'close']] });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.extents.map((e: { offset: number }) => e.offset), [0, 10, 20]);
    assert.equal(answer.body.extents[0].parent.href, file.selfRef);
    assert.match(answer.body.extents[0].selfRef, /\/extents\//);
    const plain = await get(`${server.url}/exnodes/${file.id}`);
    assert.deepEqual(plain.body.extents, [{ href: 'http://stale/extents/x', rel: 'full' }], 'without inline, as stored');
  });

  it('a list: files completed, directories as stored, a file without extents gets []', async () => {
    const listed = (await get(`${server.url}/exnodes?inline&sort=name:1`)).body as { name: string; extents?: unknown[] }[];
    assert.deepEqual(
      listed.map((e) => [e.name, e.extents?.length]),
      [
        ['dir', undefined],
        ['empty.bin', 0],
        ['f.bin', 3],
      ],
    );
  });

  it('with fields= and expand, and a new extent changes the ETag', async () => {
    // No Accept is UNIS form: fields= on one resource is a one-element array (rest-contract §3, revised 2026-11-29).
    const projected = await get(`${server.url}/exnodes/${file.id}?inline&fields=name,extents`);
    assert.equal(projected.body.length, 1);
    assert.deepEqual(Object.keys(projected.body[0]).sort(), ['extents', 'name']);
    const expanded = await get(`${server.url}/exnodes/${file.id}?inline&expand`);
    assert.equal(expanded.body.parent.name, 'dir', 'expand resolves the parent');
    assert.equal(expanded.body.extents.length, 3);
    const before = await get(`${server.url}/exnodes/${file.id}?inline`);
    await post(`${server.url}/extents`, extent(file.selfRef, 30));
    const after = await get(`${server.url}/exnodes/${file.id}?inline`, { 'if-none-match': before.headers.get('etag')! });
    assert.equal(after.status, 200);
    assert.equal(after.body.extents.length, 4);
  });

  it('with at=T, the extents the file had at T (rest-contract §12)', async () => {
    const f = (await post(`${server.url}/exnodes`, { name: 'then.bin', mode: 'file', size: 20, created: 1, modified: 1, parent: null })).body;
    const [first, second] = (await post(`${server.url}/extents`, [extent(f.selfRef, 0), extent(f.selfRef, 10)])).body as { id: string; ts: number }[];
    const moved = (await patch(`${server.url}/extents/${first!.id}`, { location: 'ibp://elsewhere:6714/0' })).body as { ts: number };
    assert.equal((await del(`${server.url}/extents/${second!.id}`)).status, 204);
    await post(`${server.url}/extents`, extent(f.selfRef, 20));
    const at = async (instant: number | undefined) =>
      ((await get(`${server.url}/exnodes/${f.id}?inline${instant === undefined ? '' : `&at=${instant}`}`)).body.extents as { offset: number; location: string }[]).map((e) => `${e.offset} ${e.location}`);
    assert.deepEqual(await at(second!.ts), ['0 ibp://depot:6714/0', '10 ibp://depot:6714/10']);
    assert.deepEqual(await at(moved.ts), ['0 ibp://elsewhere:6714/0', '10 ibp://depot:6714/10']);
    assert.deepEqual(await at(undefined), ['0 ibp://elsewhere:6714/0', '20 ibp://depot:6714/20']);
    const listed = (await get(`${server.url}/exnodes?inline&at=${second!.ts}&name=then.bin`)).body as { extents: unknown[] }[];
    assert.equal(listed[0]!.extents.length, 2);
  });
});
