import assert from 'node:assert/strict';
import { curlBlocks, runCurlBlocks } from '../helpers/curl-examples.js';
import { get } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * Every curl example of the README runs, as written, against a real server (its address put in
 * place of 127.0.0.1:8080), with curl set to fail on an HTTP error: an example that rots fails
 * here. The SDK program is compiled and run by test/client/.
 */
describe('README examples', function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('finds the curl examples (the try-it block and the measurement block)', async () => {
    assert.ok((await curlBlocks('README.md')).length >= 2);
  });

  it('runs each, in order, without an HTTP error', async () => {
    const blocks = await curlBlocks('README.md');
    const outputs = await runCurlBlocks(blocks, server.url);
    outputs.forEach((stdout, i) => assert.ok(stdout.length > 0, blocks[i]));
  });

  it('the measurement example stores a point that reads back', async () => {
    const points = await get(`${server.url}/data/m1?limit=300`);
    assert.equal(points.status, 200);
    assert.equal(points.body.length, 1, JSON.stringify(points.body));
    assert.equal(points.body[0].value, 12.5);
  });

  it('the try-it example finds the node it created', async () => {
    const nodes = await get(`${server.url}/nodes?location.institution=IU&fields=id,name`);
    assert.deepEqual(nodes.body.map((n: { name: string }) => n.name), ['router-1']);
  });
});
