import assert from 'node:assert/strict';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';
import { del, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { StreamClient, type ServerSentEvent } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

const WRITERS = 8;
const WRITES_PER_WRITER = 40;
const HOT = 4;
const SUBSCRIBERS = 4;

/** A small deterministic generator, so a failure can be replayed (the seed is in the test's name). */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/**
 * A subscriber that keeps dropping its stream at random moments and resumes with Last-Event-ID,
 * on a process picked at random, until told to stop and caught up with `last`.
 */
class Resumer {
  readonly events: ServerSentEvent[] = [];
  resumptions = 0;
  private stream: StreamClient | undefined;
  private stopping = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly urls: readonly string[],
    private readonly next: () => number,
  ) {}

  start(): Promise<void> {
    return this.open().then(() => {
      this.running = this.loop();
    });
  }

  private async open(): Promise<void> {
    const url = this.urls[Math.floor(this.next() * this.urls.length)]!;
    // The first stream starts at the beginning of the log (0: before every event).
    const stream = await StreamClient.open(`${url}/nodes`, { 'last-event-id': this.events.at(-1)?.id ?? '0' });
    assert.equal(stream.status, 200);
    this.stream = stream;
    this.taken = 0;
  }

  /** Take what the open stream has, and close it at a random moment; open the next one after the last event taken. */
  private async loop(): Promise<void> {
    while (!this.stopping) {
      await new Promise((resolve) => setTimeout(resolve, 20 + this.next() * 200));
      this.collect();
      if (this.stopping) break;
      this.stream!.close();
      this.resumptions++;
      await this.open();
    }
  }

  /** Events of the open stream not taken yet (a stream closed mid-event loses only what was not parsed). */
  private taken = 0;
  private collect(): void {
    const events = this.stream!.events;
    for (; this.taken < events.length; this.taken++) this.events.push(events[this.taken]!);
  }

  async stop(until: string): Promise<void> {
    this.stopping = true;
    await this.running;
    // The stream still open takes the rest.
    await eventually(`the subscriber to reach event ${until}`, () => {
      this.collect();
      return this.events.at(-1)?.id === until ? true : undefined;
    }, 30_000);
    this.stream!.close();
  }
}

/** The events of `stream` once no more have come for half a second, and at least `least`. */
async function settled(stream: StreamClient, least: number, complete: (events: readonly ServerSentEvent[]) => boolean = () => true): Promise<ServerSentEvent[]> {
  let count = -1;
  let since = Date.now();
  return eventually(
    `at least ${least} events, then quiet`,
    () => {
      if (stream.events.length !== count) {
        count = stream.events.length;
        since = Date.now();
        return undefined;
      }
      // Quiet for 500 ms is not enough on a loaded machine (a replay's batches can be further
      // apart, and deletions make the count pass `least` early): `complete` says what must be in.
      return count >= least && Date.now() - since > 500 && complete(stream.events) ? stream.events : undefined;
    },
    30_000,
  ).catch(() => stream.events);
}

/**
 * The change feed's guarantees under concurrent writers in several processes
 * (docs/subscriptions.md, docs/internals.md "The event log"): every committed change is delivered
 * once, each resource's changes in the order of its versions, and a subscriber that resumes with
 * Last-Event-ID at any point, on any process, loses none and receives none twice. On PostgreSQL
 * two servers share the database, as separately started processes would; on SQLite the two
 * workers of `--workers 2` share the file.
 */
describe('the change feed under concurrent writers in two processes', function () {
  this.timeout(180_000);
  const seed = Number(process.env.FEED_ORDER_SEED ?? Date.now() % 1_000_000);
  let database: TestDatabase | undefined;
  const servers: RunningServer[] = [];
  let urls: string[];

  before(async () => {
    if (engine === 'postgres') {
      database = await createTestDatabase();
      servers.push(await startServer({ database }), await startServer({ database }));
      urls = servers.map((s) => s.url);
    } else {
      servers.push(await startServer({ args: ['--workers', '2'] }));
      urls = [servers[0]!.url];
    }
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await database?.drop();
  });

  it(`delivers every change once, each resource in order, to subscribers that resume at random points (seed ${seed})`, async () => {
    const next = random(seed);
    const url = (): string => urls[Math.floor(next() * urls.length)]!;
    // Resources every writer fights over: their versions come from both processes at once.
    for (let h = 0; h < HOT; h++) assert.equal((await post(`${url()}/nodes`, { id: `hot-${h}`, name: `hot ${h}` })).status, 201);

    const resumers = Array.from({ length: SUBSCRIBERS }, (_, i) => new Resumer(urls, random(seed + i + 1)));
    await Promise.all(resumers.map((r) => r.start()));

    /** Versions the writers were told were stored: `id ts`. */
    const acknowledged: string[] = [];
    const ack = (body: { id: string; ts: number }): void => void acknowledged.push(`${body.id} ${body.ts}`);
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const pick = random(seed * 31 + w);
        for (let i = 0; i < WRITES_PER_WRITER; i++) {
          const hot = `hot-${Math.floor(pick() * HOT)}`;
          const choice = pick();
          if (choice < 0.3) {
            const answer = await post(`${url()}/nodes`, { name: `new ${w}-${i}` });
            assert.equal(answer.status, 201, answer.text);
            ack(answer.body);
          } else if (choice < 0.55) {
            const answer = await patch(`${url()}/nodes/${hot}`, { description: `${w}-${i}` });
            assert.equal(answer.status, 200, answer.text);
            ack(answer.body);
          } else if (choice < 0.75) {
            // A re-POST of a known id: a new version of it (UNIS clients update this way).
            const answer = await post(`${url()}/nodes`, { id: hot, name: `hot again ${w}-${i}` });
            assert.equal(answer.status, 201, answer.text);
            ack(answer.body);
          } else if (choice < 0.9) {
            const answer = await post(`${url()}/nodes`, [{ name: `batch ${w}-${i}-a` }, { id: `flap-${w}`, name: 'flap' }, { name: `batch ${w}-${i}-b` }]);
            assert.equal(answer.status, 201, answer.text);
            for (const stored of answer.body) ack(stored);
          } else {
            const gone = await del(`${url()}/nodes/flap-${w}`);
            assert.ok(gone.status === 204 || gone.status === 404, gone.text);
          }
        }
      }),
    );

    // The whole log, read back from the start through a stream of its own: what every subscriber must have.
    const everything = await StreamClient.open(`${url()}/nodes`, { 'last-event-id': '0' });
    const hasAll = (events: readonly ServerSentEvent[]): boolean => {
      const seen = new Set(events.filter((e) => e.event !== 'DELETE').map((e) => `${e.data.id} ${e.data.ts}`));
      return acknowledged.every((v) => seen.has(v));
    };
    // Waits up to 30 s for every acknowledged version; what is missing then fails below.
    const whole = await settled(everything, acknowledged.length + HOT, hasAll);
    everything.close();
    const ids = whole.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'an event repeated in the replay');

    // Every acknowledged version is in the log, once.
    const versions = whole.filter((e) => e.event !== 'DELETE').map((e) => `${e.data.id} ${e.data.ts}`);
    assert.equal(new Set(versions).size, versions.length, 'a version published twice');
    const published = new Set(versions);
    for (const version of acknowledged) assert.ok(published.has(version), `acknowledged ${version} was never published`);

    // Each resource's changes in the order of its versions: ts strictly increasing.
    const lastTs = new Map<string, number>();
    for (const e of whole) {
      const id = String(e.data.id);
      if (e.event === 'DELETE') continue;
      const before = lastTs.get(id);
      assert.ok(before === undefined || e.data.ts > before, `${id}: version ${e.data.ts} published after ${before}`);
      lastTs.set(id, e.data.ts);
    }

    // Every subscriber saw exactly that sequence, whatever its resumptions.
    for (const [i, resumer] of resumers.entries()) {
      await resumer.stop(ids.at(-1)!);
      assert.ok(resumer.resumptions > 0, `subscriber ${i} never resumed`);
      assert.deepEqual(resumer.events.map((e) => e.id), ids, `subscriber ${i} (${resumer.resumptions} resumptions) differs from the log`);
    }
  });
});
