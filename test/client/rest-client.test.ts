import assert from 'node:assert/strict';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  Query,
  TopologyClient,
  type ExnodeFields,
  type NodeFields,
} from '../../generated/client/rest.js';
import { QUERY_OPERATORS, VALUE_TYPES, type QueryOperator } from '../../generated/rest/contract.js';
import { conformingFetch } from '../helpers/openapi.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** The generated REST client driving a full CRUD and query flow against a real server. */
describe('generated REST client', function () {
  let server: RunningServer;
  let client: TopologyClient;
  before(async () => {
    server = await startServer();
    client = new TopologyClient({ baseUrl: server.url, fetch: conformingFetch });
  });
  after(async () => {
    await server.stop();
  });

  it('creates, reads, replaces, patches and deletes, each answer with its ETag', async () => {
    const { value: node, etag } = await client.nodes.create({ name: 'sdk-1', urn: 'urn:sdk:1', location: { institution: 'IU' } });
    assert.ok(node.id && node.ts);
    assert.equal(etag, `"${node.ts}"`);
    const read = await client.nodes.get(node.id);
    assert.deepEqual(read.value, node);
    assert.equal(read.etag, etag);
    assert.ok(read.lastModified);

    const replaced = await client.nodes.replace(node.id, { name: 'sdk-1b', location: { institution: 'IU' } }, { ifMatch: etag });
    assert.equal(replaced.value.name, 'sdk-1b');
    assert.equal(replaced.value.urn, undefined);
    assert.equal(replaced.etag, `"${replaced.value.ts}"`);

    const patched = await client.nodes.patch(node.id, { urn: 'urn:sdk:1b', location: null }, { ifMatch: replaced.etag });
    assert.equal(patched.value.urn, 'urn:sdk:1b');
    assert.equal(patched.value.location, undefined);
    assert.notEqual(patched.etag, replaced.etag);

    assert.deepEqual((await client.nodes.get(node.id, { ts: node.ts })).value, node);
    const history = await client.nodes.history(node.id);
    assert.deepEqual(history.map((v) => v.ts), [patched.value.ts, replaced.value.ts, node.ts]);

    await assert.rejects(client.nodes.delete(node.id, { ifMatch: etag }), PreconditionFailedError);
    await client.nodes.delete(node.id, { ifMatch: patched.etag });
    await assert.rejects(client.nodes.get(node.id), NotFoundError);
  });

  it('creates many, all or nothing, with the ETag GET would give each', async () => {
    const created = await client.ports.createMany([{ name: 'p-a', capacity: 10 }, { name: 'p-b', capacity: 20 }]);
    assert.equal(created.length, 2);
    for (const { value, etag } of created) assert.equal((await client.ports.get(value.id!)).etag, etag);
    const failure = await client.ports.createMany([{ name: 'p-c' }, { capacity: 'fast' as unknown as number }]).catch((e: unknown) => e);
    assert.ok(failure instanceof BadRequestError);
    assert.deepEqual(failure.details.map((d) => d.path), ['/1/capacity']);
    assert.equal(failure.status, 400);
    assert.ok(failure.requestId);
    assert.equal((await client.ports.list((q) => q.eq('name', 'p-c'))).length, 0);
  });

  it('queries with the typed builder', async () => {
    await client.ports.createMany([
      { name: 'q-1', capacity: 100, location: { institution: 'MIT' } },
      { name: 'q-2', capacity: 1000, location: { institution: 'MIT' } },
      { name: 'q&=3%', capacity: 5000, location: { institution: 'MIT' } },
    ]);
    const big = await client.ports.list((q) => q.eq('location.institution', 'MIT').gte('capacity', 1000).sort(['capacity', -1]));
    assert.deepEqual(big.map((p) => p.name), ['q&=3%', 'q-2']);
    const either = await client.ports.list((q) => q.anyOf((a) => a.eq('name', 'q-1').gt('capacity', 4000)));
    assert.deepEqual(either.map((p) => p.name).sort(), ['q&=3%', 'q-1']);
    const listed = await client.ports.list((q) => q.eq('name', ['q-1', 'q&=3%']).fields('name').limit(5));
    assert.deepEqual(listed.map((p) => Object.keys(p)), [['name'], ['name']]);
    // Newest first without sort (rest-contract §5, revised 2026-11-29); limit(0) is no limit.
    const newest = await client.ports.list((q) => q.eq('location.institution', 'MIT').limit(0));
    assert.deepEqual(newest.map((p) => p.name), ['q&=3%', 'q-2', 'q-1']);
    const present = await client.ports.list((q) => q.eq('location.institution', 'MIT').exists('capacity').fieldsExcept('location', 'selfRef', '$schema', 'id', 'ts').limit(1));
    assert.deepEqual(present, [{ name: 'q&=3%', capacity: 5000 }]);
    assert.deepEqual(await client.ports.list((q) => q.eq('location.institution', 'MIT').exists('capacity', false)), []);
    const tricky = await client.ports.list((q) => q.eq('name', 'q&=3%'));
    assert.equal(tricky.length, 1, '& = and % inside values are escaped');
    // As in UNIS, , and | always separate: such a value cannot be asked for, and the SDK says so.
    assert.throws(() => new Query<NodeFields>().eq('name', 'a,b').toString(), RangeError);
  });

  it('sends a string value that reads as an operator or a typed prefix as that string (rest-contract §5: string:)', async () => {
    // Each reads as an operator of the grammar when sent bare: reg= would search, eq= and
    // recfind= be refused, not= match every other name, null= look for no name at all.
    const names = ['reg=x', 'eq=a', 'not=b', 'null=', 'recfind=d', 'lt=c', 'string:s', 'Integer:5'];
    await client.nodes.createMany([...names, 'box', 'b', 'a'].map((name) => ({ name, location: { institution: 'ESC' } })));
    for (const name of names) {
      const one = await client.nodes.list((q) => q.eq('location.institution', 'ESC').eq('name', name));
      assert.deepEqual(one.map((n) => n.name), [name], `eq(name, ${JSON.stringify(name)})`);
      const either = await client.nodes.list((q) => q.eq('location.institution', 'ESC').anyOf((a) => a.eq('name', 'nobody').eq('name', name)));
      assert.deepEqual(either.map((n) => n.name), [name], `anyOf(eq(name, ${JSON.stringify(name)}))`);
    }
    const listed = await client.nodes.list((q) => q.eq('location.institution', 'ESC').eq('name', ['reg=x', 'not=b']).sort(['name', 1]));
    assert.deepEqual(listed.map((n) => n.name), ['not=b', 'reg=x']);
  });

  it('builds query strings in the service grammar', () => {
    const cases: [string, { given: Query<NodeFields>; want: string }][] = [
      ['equality', { given: new Query<NodeFields>().eq('name', 'a'), want: 'name=a' }],
      ['IN', { given: new Query<NodeFields>().eq('name', ['a', 'b']), want: 'name=a,b' }],
      ['typed numbers', { given: new Query<NodeFields>().gt('ts', 5), want: 'ts=gt=integer:5' }],
      ['OR', { given: new Query<NodeFields>().anyOf((a) => a.eq('name', 'a').lt('ts', 2)), want: 'name=a|ts=lt=integer:2' }],
      ['prefix-looking strings', { given: new Query<NodeFields>().eq('name', 'lt=x'), want: 'name=string%3Alt%3Dx' }],
      ['paging', { given: new Query<NodeFields>().limit(2).skip(4).sort(['name', 1]), want: 'limit=2&skip=4&sort=name:1' }],
      // Revised 2026-11-29 (rest-contract §5).
      ['exists', { given: new Query<NodeFields>().exists('location.institution').exists('urn', false), want: 'location.institution=exists=true&urn=exists=false' }],
      ['exists in an OR', { given: new Query<NodeFields>().anyOf((a) => a.eq('name', 'a').exists('urn', false)), want: 'name=a|urn=exists=false' }],
      ['every field except', { given: new Query<NodeFields>().fieldsExcept('ports', 'location.city'), want: 'fields=neg=ports,location.city' }],
      ['limit(0): no limit', { given: new Query<NodeFields>().limit(0), want: 'limit=0' }],
      // A pattern is taken whole (rest-contract §5): its commas stay in it.
      ['a pattern keeps its commas', { given: new Query<NodeFields>().reg('name', 'a{1,3}'), want: 'name=reg=a%7B1%2C3%7D' }],
      ['null= takes nothing', { given: new Query<NodeFields>().anyOf((a) => a.eq('name', 'a').null('urn')), want: 'name=a|urn=null=' }],
    ];
    for (const [name, { given, want }] of cases) assert.equal(given.toString(), want, name);
    // `|` separates terms everywhere, in a pattern too.
    assert.throws(() => new Query<NodeFields>().reg('name', 'a|b').toString(), RangeError);
    // Every start the contract table's grammar gives a value is escaped, in every place a value goes.
    const starts = [...Object.values(QUERY_OPERATORS).map((o) => `${o.prefix}=`), ...VALUE_TYPES.map((t) => `${t}:`)];
    for (const start of starts) {
      const escaped = encodeURIComponent(`string:${start}v`);
      assert.equal(new Query<NodeFields>().eq('name', `${start}v`).toString(), `name=${escaped}`, start);
      assert.equal(new Query<NodeFields>().eq('name', ['a', `${start}v`]).toString(), `name=a,${escaped}`, start);
      assert.equal(new Query<NodeFields>().anyOf((a) => a.eq('urn', 'u').eq('name', `${start}v`)).toString(), `urn=u|name=${escaped}`, start);
    }
  });

  it('has a builder for every operator of the contract table, whose request the service answers as the operator means', async () => {
    await client.nodes.createMany([
      { id: 'op-1', name: 'Depot-Alpha', description: 'first', location: { institution: 'OPS', latitude: 1 } },
      { id: 'op-2', name: 'beta', location: { institution: 'OPS', latitude: 2 } },
      { id: 'op-3', name: 'gamma', description: 'third', location: { institution: 'OPS', latitude: 3 } },
    ]);
    const exnode = (id: string, mode: 'file' | 'directory', parent: string | null) => ({
      id, name: id, mode, size: 1, created: 1, modified: 1, parent: parent === null ? null : { href: `${server.url}/exnodes/${parent}`, rel: 'full' as const },
    });
    await client.exnodes.createMany([exnode('op-dir', 'directory', null), exnode('op-sub', 'directory', 'op-dir'), exnode('op-file', 'file', 'op-sub'), exnode('op-other', 'file', null)]);
    // Each operator by its named builder and by where(), one request each: the query string sent, and the ids answered.
    const ops = () => new Query<NodeFields>().eq('location.institution', 'OPS');
    type Case<F> = { given: Query<F>; where: Query<F>; want: { query: string; ids: string[] } };
    const onNodes: [QueryOperator, Case<NodeFields>][] = [
      ['lt', { given: ops().lt('location.latitude', 2), where: ops().where('location.latitude', 'lt', 2), want: { query: 'location.latitude=lt=integer:2', ids: ['op-1'] } }],
      ['lte', { given: ops().lte('location.latitude', 2), where: ops().where('location.latitude', 'lte', 2), want: { query: 'location.latitude=lte=integer:2', ids: ['op-1', 'op-2'] } }],
      ['gt', { given: ops().gt('location.latitude', 2), where: ops().where('location.latitude', 'gt', 2), want: { query: 'location.latitude=gt=integer:2', ids: ['op-3'] } }],
      ['gte', { given: ops().gte('location.latitude', 2), where: ops().where('location.latitude', 'gte', 2), want: { query: 'location.latitude=gte=integer:2', ids: ['op-2', 'op-3'] } }],
      ['reg', { given: ops().reg('name', '^depot'), where: ops().where('name', 'reg', '^depot'), want: { query: 'name=reg=%5Edepot', ids: ['op-1'] } }],
      ['not', { given: ops().not('name', 'BETA'), where: ops().where('name', 'not', 'BETA'), want: { query: 'name=not=BETA', ids: ['op-1', 'op-3'] } }],
      ['numeq', { given: ops().numeq('location.latitude', 3), where: ops().where('location.latitude', 'numeq', 3), want: { query: 'location.latitude=eq=integer:3', ids: ['op-3'] } }],
      ['null', { given: ops().null('description'), where: ops().where('description', 'null'), want: { query: 'description=null=', ids: ['op-2'] } }],
      ['exists', { given: ops().exists('description'), where: ops().where('description', 'exists', true), want: { query: 'description=exists=true', ids: ['op-1', 'op-3'] } }],
    ];
    const onExnodes: [QueryOperator, Case<ExnodeFields>][] = [
      ['recfind', { given: new Query<ExnodeFields>().recfind('parent', 'op-dir'), where: new Query<ExnodeFields>().where('parent', 'recfind', 'op-dir'), want: { query: 'parent=recfind=op-dir', ids: ['op-file', 'op-sub'] } }],
    ];
    assert.deepEqual([...onNodes, ...onExnodes].map(([operator]) => operator).sort(), Object.keys(QUERY_OPERATORS).sort(), 'a case for every operator of the contract table');
    const sent: string[] = [];
    const recording = new TopologyClient({ baseUrl: server.url, fetch: (input, init) => {
      sent.push(String(input));
      return conformingFetch(input, init);
    } });
    const asked = async <F>(collection: 'nodes' | 'exnodes', operator: QueryOperator, { given, where, want }: Case<F>) => {
      const prefix = collection === 'nodes' ? 'location.institution=OPS&' : '';
      assert.equal(where.toString(), given.toString(), `${operator}: where() and the named builder`);
      const listed = await (collection === 'nodes' ? recording.nodes.list(given as Query<NodeFields>) : recording.exnodes.list(given as Query<ExnodeFields>));
      assert.equal(sent.at(-1), `${server.url}/${collection}?${prefix}${want.query}`, `${operator}: the request`);
      assert.deepEqual(listed.map((r) => r.id).sort(), want.ids, `${operator}: the answer`);
    };
    for (const [operator, c] of onNodes) await asked('nodes', operator, c);
    for (const [operator, c] of onExnodes) await asked('exnodes', operator, c);
  });

  it('conditional GET and If-Match', async () => {
    const { value: node } = await client.nodes.create({ name: 'cond' });
    const first = await client.nodes.getIfChanged(node.id!);
    assert.equal(first.notModified, false);
    const again = await client.nodes.getIfChanged(node.id!, first.etag);
    assert.equal(again.notModified, true);
    await client.nodes.patch(node.id!, { name: 'cond-2' }, { ifMatch: first.etag });
    await assert.rejects(client.nodes.patch(node.id!, { name: 'cond-3' }, { ifMatch: first.etag }), PreconditionFailedError);
  });

  it('conditional list: notModified while nothing the list could show has changed', async () => {
    await client.nodes.create({ name: 'listed' });
    const first = await client.nodes.listIfChanged((q) => q.eq('name', 'listed'));
    assert.equal(first.notModified, false);
    assert.equal(first.notModified === false && first.items.length, 1);
    assert.match(first.etag, /^W\//);
    assert.deepEqual(await client.nodes.listIfChanged((q) => q.eq('name', 'listed'), first.etag), { notModified: true, etag: first.etag });
    await client.nodes.create({ name: 'listed' });
    const changed = await client.nodes.listIfChanged((q) => q.eq('name', 'listed'), first.etag);
    assert.equal(changed.notModified === false && changed.items.length, 2);
    assert.notEqual(changed.etag, first.etag);
  });

  it('raises typed errors carrying the error body', async () => {
    const created = await client.nodes.create({ id: 'sdk-dup' });
    const error = await client.nodes.create({ id: 'sdk-dup', ts: created.value.ts! }).catch((e: unknown) => e);
    assert.ok(error instanceof ConflictError);
    assert.equal(error.body.error.status, 409);
  });

  it('lists the collections', async () => {
    const collections = await client.collections();
    assert.equal(collections.length, 12);
    assert.ok(collections.some((c) => c.href.endsWith('/exnodes') && c.targetschema.items.href.endsWith('/schema/20120709/exnode#')));
  });
  it('subscribe() follows changes as they are committed, and resumes after a dropped connection with none lost or repeated', async () => {
    // A fetch that cuts the first event stream after two events, as a network would.
    let streams = 0;
    const cutting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!new Headers(init?.headers).get('accept')?.includes('text/event-stream') || streams++ > 0 || !response.body) return response;
      const reader = response.body.getReader();
      let events = 0;
      const cut = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          events += (new TextDecoder().decode(value).match(/\n\n/g) ?? []).length;
          if (events >= 3) controller.error(new Error('connection reset'));
        },
      });
      return new Response(cut, { status: response.status, headers: response.headers });
    };
    const follower = new TopologyClient({ baseUrl: server.url, fetch: cutting });
    const stop = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const change of follower.ports.subscribe((q) => q.eq('location.institution', 'SUB'), { signal: stop.signal })) {
        seen.push(`${change.action} ${change.action === 'DELETE' ? change.value.id : change.value.name}`);
        if (seen.length === 5) stop.abort();
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { value: port } = await client.ports.create({ id: 'sub-1', name: 'one', location: { institution: 'SUB' } });
    await client.ports.create({ name: 'elsewhere', location: { institution: 'MIT' } });
    await client.ports.patch(port.id!, { name: 'two' });
    await client.ports.patch(port.id!, { name: 'three' });
    await client.ports.create({ id: 'sub-2', name: 'four', location: { institution: 'SUB' } });
    await client.ports.delete(port.id!);
    await following;
    assert.deepEqual(seen, ['POST one', 'PUT two', 'PUT three', 'POST four', 'DELETE sub-1']);
    assert.ok(streams >= 2, 'the stream was opened again after the cut');
  });

  it('subscribe() resumes from lastEventId, and a refusal ends it with the typed error', async () => {
    // The answer checker reads whole bodies: an event stream never ends, so it goes around it.
    const follower = new TopologyClient({ baseUrl: server.url });
    const first = follower.nodes.subscribeTo('resumed');
    // The stream opens at the first next().
    const firstChange = first.next();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.nodes.create({ id: 'resumed', name: 'a' });
    const { value: change } = await firstChange;
    await first.return(undefined);
    await client.nodes.patch('resumed', { name: 'b' });
    const again = follower.nodes.subscribeTo('resumed', undefined, { lastEventId: change!.event });
    const { value: missed } = await again.next();
    await again.return(undefined);
    assert.ok(missed && missed.action === 'PUT');
    assert.equal(missed.value.name, 'b');
    const nowhere = new TopologyClient({ baseUrl: `${server.url}/nowhere` });
    await assert.rejects(nowhere.nodes.subscribe().next(), NotFoundError);
  });

  it('at(T) reads a collection as it was, and changes(since, until) tells what changed between two instants', async () => {
    const first = (await client.links.create({ id: 'sdk-time', name: 'l1', directed: false, endpoints: [{ href: `${server.url}/ports/x`, rel: 'full' }, { href: `${server.url}/ports/y`, rel: 'full' }] })).value;
    const second = (await client.links.patch('sdk-time', { name: 'l2' })).value;
    await client.links.delete('sdk-time');
    const then = client.links.at(first.ts!);
    assert.deepEqual((await then.list((q) => q.eq('id', 'sdk-time'))).map((l) => l.name), ['l1']);
    assert.equal((await then.get('sdk-time')).value.name, 'l1');
    assert.equal((await then.get('sdk-time')).etag, `"${first.ts}"`);
    await assert.rejects(client.links.at(new Date()).get('sdk-time'), NotFoundError);
    assert.deepEqual(await client.links.at(first.ts! - 1).list((q) => q.eq('id', 'sdk-time')), []);

    const updated = await client.links.changes(first.ts!, second.ts!);
    assert.deepEqual(updated.map((c) => [c.id, c.change, c.before?.name, c.after?.name]), [['sdk-time', 'updated', 'l1', 'l2']]);
    const deleted = await client.links.changes(second.ts!, undefined, (q) => q.eq('name', 'l2'));
    assert.deepEqual(deleted.map((c) => [c.id, c.change, c.after]), [['sdk-time', 'deleted', null]]);
    assert.deepEqual((await client.links.changes(undefined, first.ts!)).filter((c) => c.id === 'sdk-time').map((c) => c.change), ['created']);
    assert.throws(() => client.links.at(-1), RangeError);
  });
});
