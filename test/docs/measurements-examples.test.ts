import assert from 'node:assert/strict';
import { curlBlocks, runCurlBlocks } from '../helpers/curl-examples.js';
import { get } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * docs/measurements.md's curl examples run in order, as written but for the address, against a
 * real server: the metadata, the series, three points posted, and the read of two of them.
 */
describe('docs/measurements.md examples', function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('register a series, post three points, and read back those above 12.5, newest first', async () => {
    const blocks = await curlBlocks('docs/measurements.md');
    assert.equal(blocks.length, 3, 'register, post, read');
    const outputs = await runCurlBlocks(blocks, server.url);
    // Two answers, printed one after the other (curl adds no newline).
    const posted = outputs[1]!.trim().split(/(?<=\})(?=\{)/).map((line) => JSON.parse(line) as { stored: number; series: { expired: number }[] });
    assert.deepEqual(posted.map((answer) => [answer.stored, answer.series[0]!.expired]), [[2, 0], [1, 0]], 'nothing posted had expired');
    assert.deepEqual((JSON.parse(outputs[2]!) as { value: number }[]).map((p) => p.value), [14, 13]);
    const all = await get(`${server.url}/events/m1`);
    assert.equal(all.body.count, 3);
  });
});
