import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { get } from '../helpers/http.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

const run = promisify(execFile);
const README_BASE = 'http://127.0.0.1:8080';

/** The README's shell blocks that call the service with curl, in order. */
async function curlBlocks(): Promise<string[]> {
  const readme = await readFile(path.join(projectRoot, 'README.md'), 'utf8');
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((block) => /^curl /m.test(block) && block.includes(README_BASE));
}

/**
 * Every curl example of the README runs, as written, against a real server (its address put in
 * place of 127.0.0.1:8080), with curl set to fail on an HTTP error (a `.curlrc` of its own): an
 * example that rots fails here. The SDK program is compiled and run by test/client/.
 */
describe('README examples', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let curlHome: string;
  before(async () => {
    server = await startServer();
    curlHome = await mkdtemp(path.join(tmpdir(), 'topocat-curl-'));
    await writeFile(path.join(curlHome, '.curlrc'), 'fail-with-body\nshow-error\nmax-time = 10\n');
  });
  after(async () => {
    await server.stop();
    await rm(curlHome, { recursive: true, force: true });
  });

  it('finds the curl examples (the try-it block and the measurement block)', async () => {
    assert.ok((await curlBlocks()).length >= 2);
  });

  it('runs each, in order, without an HTTP error', async () => {
    for (const block of await curlBlocks()) {
      const script = `set -e\n${block.split(README_BASE).join(server.url)}`;
      const { stdout } = await run('sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', CURL_HOME: curlHome } }).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`README block failed:\n${block}\n${error.stderr}\n${error.stdout}`);
      });
      assert.ok(stdout.length > 0, block);
    }
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
