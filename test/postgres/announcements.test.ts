import assert from 'node:assert/strict';
import pg from 'pg';
import { announcementChannels } from '../../server/storage/dialects/postgres/announcements.js';
import { createTestDatabase, engine, postgresUrl, type TestDatabase } from '../helpers/database.js';
import { post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

/**
 * Announcements cost nothing where nobody subscribes (issue "Past one process, part two"): a
 * process NOTIFYs its commits only while another process of the database has subscribers, so
 * without subscribers no write wakes the other processes, however many there are; with one, its
 * subscribers hear of another process's writes at once, not at the next poll.
 */
describe('PostgreSQL: commits are announced only while another process has subscribers', function () {
  let database: TestDatabase;
  let servers: RunningServer[] = [];
  let observer: pg.Client;
  const heard: { channel: string; payload: string }[] = [];
  let channels: { commits: string; interest: string };

  before(async function () {
    if (engine !== 'postgres') this.skip();
    database = await createTestDatabase();
    const env = { PUBLIC_URL: 'http://topology.example.net' };
    servers = [await startServer({ database, env }), await startServer({ database, env })];
    channels = announcementChannels(database.schema);
    observer = new pg.Client({ connectionString: postgresUrl() });
    await observer.connect();
    observer.on('notification', (m) => heard.push({ channel: m.channel, payload: m.payload ?? '' }));
    await observer.query(`LISTEN "${channels.commits}"`);
    await observer.query(`LISTEN "${channels.interest}"`);
    // Past the grace of a process that has just asked who listens.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
  });
  after(async () => {
    await observer?.end();
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  const commits = (): number => heard.filter((h) => h.channel === channels.commits).length;
  const writeThroughFirst = async (prefix: string, n: number): Promise<void> => {
    for (let i = 0; i < n; i++) assert.equal((await post(`${servers[0]!.url}/nodes`, { id: `${prefix}-${i}`, name: 'n' })).status, 201);
    // A NOTIFY is sent after its commit's answer, within ANNOUNCE_MS; then a round trip to us.
    await new Promise((resolve) => setTimeout(resolve, 300));
  };

  it('without subscribers anywhere, writes send no announcement', async () => {
    const before = commits();
    await writeThroughFirst('quiet', 10);
    assert.equal(commits(), before);
  });

  it('a subscriber on the second process: the first announces its commits, and the subscriber gets them', async () => {
    const interest = heard.length;
    const socket = await SocketClient.open(servers[1]!.url, '/subscribe/nodes');
    try {
      await eventually('the second process says it listens', () => heard.slice(interest).find((h) => h.channel === channels.interest && h.payload.startsWith('+')));
      const before = commits();
      assert.equal((await post(`${servers[0]!.url}/nodes`, { id: 'heard-0', name: 'n' })).status, 201);
      await eventually('an announcement', () => (commits() > before ? true : undefined));
      assert.equal((await socket.changesAtLeast(1))[0]!.headers!.id, 'heard-0');
    } finally {
      socket.close();
    }
    await eventually('the second process says it stopped', () => heard.slice(interest).find((h) => h.channel === channels.interest && h.payload.startsWith('-')));
  });

  it('once the subscriber is gone, writes send no announcement again', async () => {
    const before = commits();
    await writeThroughFirst('quiet-again', 10);
    assert.equal(commits(), before);
  });
});
