import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { StreamClient } from '../helpers/subscribers.js';
import { wire } from '../helpers/wire.js';

/**
 * UNIS HEAD's operators (rest-contract §5, revised 2026-11-26): `reg=`, `not=`, `eq=`, `null=`
 * and `recfind=`, in SQL on both engines. dlt-web asks them through node's
 * `querystring.stringify`, which escapes `=` (datalogistics/dlt-web@8eec5b2 `app/routes.js:444-448,
 * 504`, `app/exnodeApi.js:110`, `public/js/exnode/ExnodeService.js:14`): the exnode browser's
 * roots are `parent=null%3D`, its search `name=reg%3D<text>`.
 */
describe('UNIS operators reg=, not=, eq=, null=, recfind= (rest-contract §5)', function () {
  let server: RunningServer;
  const ids = async (target: string): Promise<string[]> => {
    const answer = await wire(server.url, { method: 'GET', target, headers: [['Connection', 'close']] });
    assert.equal(answer.status, 200, `${target}: ${answer.text}`);
    return (answer.body as { id: string }[]).map((r) => r.id).sort();
  };
  const exnode = (id: string, name: string, mode: 'file' | 'directory', parent: string | null) => ({
    id,
    name,
    mode,
    size: 1,
    created: 1,
    modified: 1,
    parent: parent === null ? null : { href: `${server.url}/exnodes/${parent}`, rel: 'full' },
  });

  before(async () => {
    server = await startServer();
    const nodes = [
      { id: 'n1', name: 'Depot-Alpha', description: 'IBP depot', ttl: 600, properties: { rack: 'A1' } },
      { id: 'n2', name: 'depot-beta', description: 'ibp DEPOT', ttl: 600.0, properties: { rack: null } },
      { id: 'n3', name: 'switch', ttl: 60, tags: ['Edge', 'core'] },
      { id: 'n4', name: 'line\nbreak', ttl: 5 },
      { id: 'n5', name: 'five', serial: 42, description: 'serial is a number' },
    ];
    assert.equal((await post(`${server.url}/nodes`, nodes)).status, 201);
    // root/ ─ a/ ─ b/ ─ deep.txt ; root/top.txt ; other/ ─ x.txt
    const tree = [
      exnode('root', 'root', 'directory', null),
      exnode('a', 'a', 'directory', 'root'),
      exnode('b', 'b', 'directory', 'a'),
      exnode('deep', 'deep.txt', 'file', 'b'),
      exnode('top', 'top.txt', 'file', 'root'),
      exnode('other', 'other', 'directory', null),
      exnode('x', 'x.TXT', 'file', 'other'),
      // A file that names a "directory" that is a file: not descended into.
      exnode('under-file', 'u', 'file', 'top'),
    ];
    const posted = await post(`${server.url}/exnodes`, tree);
    assert.equal(posted.status, 201, posted.text);
  });
  after(async () => {
    await server.stop();
  });

  const table: [string, { given: string; want: string[] }][] = [
    ['reg=: a substring, without regard to case', { given: '/nodes?name=reg=depot', want: ['n1', 'n2'] }],
    ['reg= as dlt-web encodes it (reg%3D)', { given: '/nodes?name=reg%3DDEPOT', want: ['n1', 'n2'] }],
    ['reg= anchored', { given: '/nodes?name=reg=^depot-b', want: ['n2'] }],
    ['reg= with RE2 classes and repetition', { given: '/nodes?name=reg=^%5Cw%2B-%5Bab%5Dl%7B1,2%7D', want: ['n1'] }],
    ['reg= . does not match a newline (RE2)', { given: '/nodes?name=reg=line.break', want: [] }],
    ['reg= \\s does', { given: '/nodes?name=reg=line%5Csbreak', want: ['n4'] }],
    ['reg= searches a list (open field)', { given: '/nodes?tags=reg=^edge$', want: ['n3'] }],
    ['reg= never matches a number', { given: '/nodes?serial=reg=4', want: [] }],
    ['reg= ORed with another term', { given: '/nodes?name=reg=^switch$|ttl=5', want: ['n3', 'n4'] }],
    ['not=: not equal without regard to case, absent and other types included', { given: '/nodes?name=not=DEPOT-ALPHA', want: ['n2', 'n3', 'n4', 'n5'] }],
    ['not= on a nested field, absent included', { given: '/nodes?properties.rack=not=a1', want: ['n2', 'n3', 'n4', 'n5'] }],
    ['not= of a list: no element equal', { given: '/nodes?tags=not=CORE', want: ['n1', 'n2', 'n4', 'n5'] }],
    ['not= typed number', { given: '/nodes?ttl=not=600', want: ['n3', 'n4', 'n5'] }],
    ['eq=: numeric equality (600 and 600.0)', { given: '/nodes?ttl=eq=600', want: ['n1', 'n2'] }],
    ['eq= of an open field compares numbers', { given: '/nodes?serial=eq=42.0', want: ['n5'] }],
    ['eq= never matches a string', { given: '/nodes?name=eq=5', want: [] }],
    ['eq= of id (a string column) holds for none', { given: '/nodes?id=eq=1', want: [] }],
    ['null=: null or absent', { given: '/nodes?properties.rack=null=', want: ['n2', 'n3', 'n4', 'n5'] }],
    ['null= of a field all have', { given: '/nodes?name=null=', want: [] }],
    ['null= of id never', { given: '/nodes?id=null=', want: [] }],
    ["dlt-web's exnode roots: parent=null%3D", { given: '/exnodes?parent=null%3D', want: ['other', 'root'] }],
    ["dlt-web's exnode search: name=reg%3D<text>", { given: '/exnodes?name=reg%3D.txt', want: ['deep', 'top', 'x'] }],
    ['recfind=: the whole subtree of a directory', { given: '/exnodes?parent=recfind=root', want: ['a', 'b', 'deep', 'top'] }],
    ['recfind= of a subdirectory', { given: '/exnodes?parent=recfind=a', want: ['b', 'deep'] }],
    ['recfind= by the directory\'s address', { given: '/exnodes?parent=recfind={base}/exnodes/other', want: ['x'] }],
    ['recfind= with another condition', { given: '/exnodes?parent=recfind=root&mode=file', want: ['deep', 'top'] }],
    ['recfind= of an unknown directory', { given: '/exnodes?parent=recfind=nothing', want: [] }],
  ];
  for (const [name, { given, want }] of table) {
    it(name, async () => {
      assert.deepEqual(await ids(given.replace('{base}', encodeURIComponent(server.url))), want.sort());
    });
  }

  const refused: [string, { given: string; parameter: string }][] = [
    ['an invalid pattern', { given: '/nodes?name=reg=(a', parameter: 'name' }],
    ['a back-reference (not RE2)', { given: '/nodes?name=reg=(a)%5C1', parameter: 'name' }],
    ['a lookahead (not RE2)', { given: '/nodes?name=reg=a(%3F=b)', parameter: 'name' }],
    ['a flags group', { given: '/nodes?name=reg=(%3Fs)a', parameter: 'name' }],
    ['a repetition count PostgreSQL cannot run', { given: '/nodes?name=reg=a%7B300%7D', parameter: 'name' }],
    ['a typed non-string pattern', { given: '/nodes?name=reg=number:5', parameter: 'name' }],
    ['eq= of a non-number', { given: '/nodes?ttl=eq=ten', parameter: 'ttl' }],
    ['eq= typed string', { given: '/nodes?name=eq=string:5', parameter: 'name' }],
    ['null= with a value', { given: '/nodes?name=null=x', parameter: 'name' }],
    ['not= of a list', { given: '/nodes?name=not=a,b', parameter: 'name' }],
    ['recfind= outside /exnodes', { given: '/nodes?parent=recfind=root', parameter: 'parent' }],
    ['recfind= of another field', { given: '/exnodes?name=recfind=root', parameter: 'name' }],
  ];
  for (const [name, { given, parameter }] of refused) {
    it(`400 naming the parameter: ${name}`, async () => {
      const answer = await get(`${server.url}${given}`);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.details[0].path, parameter, answer.text);
    });
  }

  it('a pattern that backtracking engines take exponential time over answers at once', async () => {
    await post(`${server.url}/nodes`, { id: 'redos', name: `${'a'.repeat(5000)}!` });
    assert.deepEqual(await ids('/nodes?name=reg=^(a%2B)%2B$'), []);
    assert.deepEqual(await ids('/nodes?name=reg=^(a%2B)%2B!$'), ['redos']);
  });

  it('an event stream filters changes with the same operators; recfind= is refused there', async () => {
    const stream = await StreamClient.open(`${server.url}/nodes?name=reg=^live-&description=not=skip&ttl=eq=7`);
    try {
      await post(`${server.url}/nodes`, [
        { id: 'l1', name: 'LIVE-one', ttl: 7 },
        { id: 'l2', name: 'live-two', ttl: 7, description: 'SKIP' },
        { id: 'l3', name: 'other', ttl: 7 },
        { id: 'l4', name: 'live-four', ttl: 7.0, description: 'keep' },
      ]);
      const events = await stream.atLeast(2);
      assert.deepEqual(events.slice(0, 2).map((e) => e.data.id), ['l1', 'l4']);
    } finally {
      stream.close();
    }
    const refusedStream = await get(`${server.url}/exnodes?parent=recfind=root`, { accept: 'text/event-stream' });
    assert.equal(refusedStream.status, 400);
  });
});
