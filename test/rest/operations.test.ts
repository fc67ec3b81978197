import assert from 'node:assert/strict';
import { collections, samples } from '../helpers/fixtures.js';
import { del, get, patch, post, put, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Every row of the interface's operation table, for every kind (docs/rest-interface.md). */
describe('REST operations of every collection', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  for (const collection of collections) {
    describe(`/${collection}`, () => {
      const sample = samples[collection]!;
      const base = () => `${server.url}/${collection}`;
      let created: any;

      it('POST one object → 201 with server fields, Location and profile', async () => {
        const answer = await post(`${base()}/`, sample(1));
        assert.equal(answer.status, 201, answer.text);
        created = answer.body;
        assert.match(created.id, /^[A-Za-z0-9._~:-]+$/);
        assert.ok(Number.isSafeInteger(created.ts) && created.ts > 1_600_000_000_000_000, 'ts in microseconds');
        assert.equal(created.selfRef, `${base()}/${created.id}`);
        assert.equal(answer.headers.get('location'), created.selfRef);
        assert.match(created.$schema, new RegExp(`/schema/20120709/\\w+#$`));
        assert.equal(answer.headers.get('content-type'), `application/topology+json; profile="${created.$schema}"`);
        for (const [key, value] of Object.entries(sample(1))) assert.deepEqual(created[key], value, key);
      });

      it('POST an array → 201 with the array and no Location', async () => {
        const answer = await post(base(), [sample(2), sample(3)]);
        assert.equal(answer.status, 201, answer.text);
        assert.equal(answer.body.length, 2);
        assert.equal(answer.headers.get('location'), null);
        assert.notEqual(answer.body[0].id, answer.body[1].id);
      });

      it('GET the collection → the current representations', async () => {
        const answer = await get(base());
        assert.equal(answer.status, 200);
        assert.equal(answer.body.length, 3);
        assert.ok(answer.body.some((r: any) => r.id === created.id));
      });

      it('GET one → 200 with ETag and Last-Modified', async () => {
        const answer = await get(created.selfRef);
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, created);
        assert.equal(answer.headers.get('etag'), `"${created.ts}"`);
        assert.ok(answer.headers.get('last-modified'));
      });

      it('HEAD one → the GET headers without a body', async () => {
        const answer = await request('HEAD', created.selfRef);
        assert.equal(answer.status, 200);
        assert.equal(answer.text, '');
        assert.equal(answer.headers.get('etag'), `"${created.ts}"`);
      });

      it('PUT → 201, a new version with a later ts and Location', async () => {
        const answer = await put(created.selfRef, { ...sample(4), id: created.id });
        assert.equal(answer.status, 201, answer.text);
        assert.ok(answer.body.ts > created.ts);
        assert.equal(answer.headers.get('location'), created.selfRef);
        assert.deepEqual((await get(created.selfRef)).body, answer.body);
        created = answer.body;
      });

      it('PATCH (merge patch) → 200 with the merged version', async () => {
        // Metadata is closed; every other kind accepts the common `description`.
        const field = collection === 'metadata' ? 'eventType' : 'description';
        const answer = await patch(created.selfRef, { [field]: 'patched' });
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.body[field], 'patched');
        assert.ok(answer.body.ts > created.ts);
        created = answer.body;
      });

      it('DELETE → 204; then GET is 404 and the list no longer has it', async () => {
        assert.equal((await del(created.selfRef)).status, 204);
        assert.equal((await get(created.selfRef, { accept: 'application/json' })).status, 404);
        const list = await get(base());
        assert.ok(!list.body.some((r: any) => r.id === created.id));
      });
    });
  }
});
