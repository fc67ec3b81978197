import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Answer } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient, StreamClient, type Frame } from '../helpers/subscribers.js';
import { UNISRT_AIOHTTP, unisSchema } from '../helpers/unis-clients.js';
import { eventually } from '../helpers/wait.js';
import { wire } from '../helpers/wire.js';

const aiohttp = UNISRT_AIOHTTP;

/**
 * A UNISrt runtime as far as its cache goes (periscope-ps/UNISrt@5647648, unis-clients.md §2.1):
 * it subscribes to every collection on one socket at `/subscribe`, inserts and updates by POSTing
 * an array with client ids, selfRefs and `20160630` schemas (no `ts`), keeps alive by `PUT
 * {"id"}`, and its subscription callback keeps its cached records as UNISrt does: a record it
 * does not hold is taken from a POST or PUT frame; a record it holds takes the frame's data only
 * from a POST frame, and from a PUT frame only the new `ts`; a DELETE frame drops it.
 */
class Runtime {
  readonly cache = new Map<string, Record<string, any>>();
  private constructor(
    private readonly url: string,
    private readonly socket: SocketClient,
  ) {
    socket.ws.on('message', (text) => this.callback(JSON.parse(text.toString()) as Frame));
  }

  static async start(url: string, collections: readonly string[]): Promise<Runtime> {
    const socket = await SocketClient.open(url, '/subscribe');
    for (const resourceType of collections) socket.send({ query: {}, resourceType });
    await socket.settled();
    return new Runtime(url, socket);
  }

  private callback(frame: Frame): void {
    if (!frame.headers) return;
    const { action } = frame.headers;
    const data = frame.data as Record<string, any>;
    if (action === 'DELETE') {
      this.cache.delete(data.id);
      return;
    }
    assert.ok((data.$schema ?? data['\\$schema']) && data.selfRef && data.ts, `a ${action} frame UNISrt can read: ${JSON.stringify(frame)}`);
    const cached = this.cache.get(data.id);
    if (!cached) this.cache.set(data.id, { ...data });
    else if (action === 'POST') Object.assign(cached, data);
    else cached.ts = data.ts;
  }

  private async send(method: string, target: string, body: unknown): Promise<Answer> {
    const answer = await wire(this.url, { method, target, headers: aiohttp, body: JSON.stringify(body) });
    assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${target}: ${answer.status} ${answer.text}`);
    return answer;
  }

  /** insert(…, commit=True) and flush(): a POST of an array with the client's id, selfRef and schema. */
  async insert(collection: string, kind: string, fields: Record<string, unknown>): Promise<Record<string, any>> {
    const id = randomUUID();
    const record = { ...fields, id, selfRef: `${this.url}/${collection}/${id}`, $schema: unisSchema(kind) };
    await this.flush(collection, record);
    return this.cache.get(id)!;
  }

  /** flush(): the record POSTed again, `ts` removed; the answer (object or array) matched by id. */
  async flush(collection: string, record: Record<string, any>): Promise<void> {
    const { ts: _ts, ...body } = record;
    const answer = await this.send('POST', `/${collection}`, [body]);
    for (const stored of [answer.body].flat() as Record<string, any>[]) {
      const cached = this.cache.get(stored.id);
      if (cached) Object.assign(cached, stored);
      else this.cache.set(stored.id, { ...stored });
    }
  }

  /** Loading a list: `GET /<c>?id=a,b`. */
  async load(collection: string, ids: readonly string[]): Promise<void> {
    const answer = await wire(this.url, { method: 'GET', target: `/${collection}?id=${ids.join(',')}`, headers: aiohttp });
    for (const record of answer.body as Record<string, any>[]) this.cache.set(record.id, { ...record });
  }

  async touch(collection: string, id: string): Promise<number> {
    return (await this.send('PUT', `/${collection}/${id}`, { id })).body.ts as number;
  }

  close(): void {
    this.socket.close();
  }
}

describe('UNIS clients: two UNISrt runtimes share a resource over the UNIS WebSocket (rest-contract §11)', function () {
  let server: RunningServer;
  let writer: Runtime;
  let reader: Runtime;
  before(async () => {
    server = await startServer();
    writer = await Runtime.start(server.url, ['nodes', 'ports']);
    reader = await Runtime.start(server.url, ['nodes', 'ports']);
  });
  after(async () => {
    writer?.close();
    reader?.close();
    await server.stop();
  });

  it('the reader\'s cache takes the writer\'s changed fields from a re-POST, and only ts from a touch', async () => {
    const node = await writer.insert('nodes', 'node', { name: 'host1', description: 'first' });
    await reader.load('nodes', [node.id]);
    assert.equal(reader.cache.get(node.id)!.description, 'first');

    // The writer changes a field and flushes: a re-POST of the id, a new version.
    node.description = 'second';
    node.location = { institution: 'IU' };
    await writer.flush('nodes', node);
    const reposted = writer.cache.get(node.id)!;
    await eventually('the re-POST reaches the reader', () => reader.cache.get(node.id)!.ts === reposted.ts || undefined);
    assert.equal(reader.cache.get(node.id)!.description, 'second');
    assert.deepEqual(reader.cache.get(node.id)!.location, { institution: 'IU' });

    // A touch: a PUT frame; the reader renews ts and keeps what it has.
    const touched = await writer.touch('nodes', node.id);
    await eventually('the touch reaches the reader', () => reader.cache.get(node.id)!.ts === touched || undefined);
    assert.equal(reader.cache.get(node.id)!.description, 'second');

    // The event stream keeps its own actions: the re-POST is a PUT there.
    const stream = await StreamClient.open(`${server.url}/nodes/${node.id}`, { 'last-event-id': '0' });
    try {
      const events = await stream.atLeast(3);
      assert.deepEqual(events.map((e) => `${e.event} ${e.data.description}`), ['POST first', 'PUT second', 'PUT second']);
    } finally {
      stream.close();
    }
  });

  it('a resource the reader never loaded arrives whole, and a second re-POST in one array updates it', async () => {
    const port = await writer.insert('ports', 'port', { name: 'eth0', capacity: 1000 });
    await eventually('the reader hears the insert', () => reader.cache.get(port.id));
    port.capacity = 10_000;
    const other = { name: 'eth1', id: randomUUID(), $schema: unisSchema('port') };
    await wire(server.url, { method: 'POST', target: '/ports', headers: aiohttp, body: JSON.stringify([{ ...port, ts: undefined }, other]) });
    await eventually('the reader hears the update', () => (reader.cache.get(port.id)!.capacity === 10_000 ? true : undefined));
    await eventually('and the new port', () => reader.cache.get(other.id));
  });
});
