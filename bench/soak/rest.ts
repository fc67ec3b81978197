/** The REST round of a soak client, every answer checked against what was sent. */
import { isDeepStrictEqual } from 'node:util';
import type { TimedResponse } from '../harness/client.js';
import { node } from '../workloads/topology.js';
import { expect, expectStatus, type Client, type Session } from './session.js';

const JSON_BODY = { 'content-type': 'application/json' };
const INSTITUTIONS = 25;

interface NodeDoc {
  readonly id: string;
  readonly ts: number;
  readonly name: string;
  readonly description?: string;
  readonly location?: { readonly institution?: string };
}

const institutionOf = (session: Session, n: number): string => `${session.tag}-institution-${n % INSTITUTIONS}`;

/** The benchmark's node shape under this run's id, name and institution. */
function soakNode(id: string, institution: string): Record<string, unknown> {
  const base = node(0);
  return { ...base, id, name: id, urn: `urn:ogf:network:domain=soak.example.net:node=${id}`, location: { ...(base.location as object), institution } };
}

function oneNode(r: TimedResponse, expected: number): NodeDoc {
  expectStatus(r, expected);
  const doc = JSON.parse(r.body) as NodeDoc;
  expect(typeof doc === 'object' && doc !== null && typeof doc.id === 'string' && Number.isSafeInteger(doc.ts), 'not a stored node (id and integer ts)');
  expect(r.headers.etag === `"${doc.ts}"`, `ETag ${r.headers.etag} is not "${doc.ts}"`);
  return doc;
}

function nodeList(r: TimedResponse): NodeDoc[] {
  expectStatus(r, 200);
  const list = JSON.parse(r.body) as NodeDoc[];
  expect(Array.isArray(list), 'not a JSON array');
  return list;
}

export async function restRound(session: Session, c: Client, round: number): Promise<void> {
  const id = `${session.tag}-c${c.k}-n${round}`;
  const institution = institutionOf(session, c.k + round);
  const sent = soakNode(id, institution);
  const created = await session.step(c, 'REST POST node', '/nodes', { method: 'POST', headers: JSON_BODY, body: JSON.stringify(sent) }, (r) => {
    const doc = oneNode(r, 201);
    expect(doc.id === id && doc.name === id && doc.description === sent.description, 'the stored node is not the one sent');
    return doc;
  });
  c.nodes.push(id);
  await session.step(c, 'REST GET node', `/nodes/${id}`, {}, (r) => {
    expect(isDeepStrictEqual(oneNode(r, 200), created), 'GET answers another document than POST did');
  });
  const description = `patched in round ${round}`;
  const patched = await session.step(c, 'REST PATCH node (merge patch)', `/nodes/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ description }) }, (r) => {
    const doc = oneNode(r, 200);
    expect(doc.ts > created.ts, `ts ${doc.ts} is not newer than ${created.ts}`);
    expect(doc.description === description && doc.name === id && doc.location?.institution === institution, 'the patch is not applied as sent');
    return doc;
  });
  await session.step(c, 'REST GET node ?ts= (first version)', `/nodes/${id}?ts=${created.ts}`, {}, (r) => {
    expect(isDeepStrictEqual(oneNode(r, 200), created), 'the first version is not the document POST answered');
  });
  await session.step(c, 'REST query ?name=', `/nodes?name=${encodeURIComponent(id)}`, {}, (r) => {
    const list = nodeList(r);
    expect(list.length === 1, `${list.length} nodes instead of 1`);
    expect(list[0]!.id === id && list[0]!.ts === patched.ts, 'not the current version of the node');
  });
  await session.step(c, 'REST query ?location.institution=…&limit=50', `/nodes?location.institution=${encodeURIComponent(institution)}&limit=50`, {}, (r) => {
    const list = nodeList(r);
    expect(list.length >= 1 && list.length <= 50, `${list.length} nodes; expected 1 to 50 (this client's node ${id} is one)`);
    expect(
      list.every((n) => n.location?.institution === institution),
      'a node of another institution',
    );
  });

  if (Math.random() < 1 / 20) {
    const victim = c.nodes.splice(Math.floor(Math.random() * c.nodes.length), 1)[0]!;
    await deleteNode(session, c, victim);
    await session.step(c, 'REST GET deleted node (404)', `/nodes/${victim}`, {}, (r) => {
      expectStatus(r, 404);
      expect((JSON.parse(r.body) as { error?: { status?: number } }).error?.status === 404, 'not the error body');
    });
  }
  if (Math.random() < 1 / 25) {
    const ids = Array.from({ length: 50 }, (_, j) => `${session.tag}-c${c.k}-a${round}-${j}`);
    const batch = ids.map((one, j) => soakNode(one, institutionOf(session, c.k + round + j)));
    await session.step(c, 'REST POST 50 nodes', '/nodes', { method: 'POST', headers: JSON_BODY, body: JSON.stringify(batch) }, (r) => {
      expectStatus(r, 201);
      const list = JSON.parse(r.body) as NodeDoc[];
      expect(Array.isArray(list) && list.length === 50, 'not an array of 50 stored nodes');
      expect(
        list.every((n, j) => n.id === ids[j] && Number.isSafeInteger(n.ts)),
        'the stored nodes are not those sent, in order',
      );
    });
    c.nodes.push(...ids);
  }
  // Bounded: beyond its share, the client deletes its oldest nodes, faster than it adds them.
  for (let trimmed = 0; trimmed < 4 && c.nodes.length > session.nodesPerClient; trimmed++) await deleteNode(session, c, c.nodes.shift()!);
}

async function deleteNode(session: Session, c: Client, id: string): Promise<void> {
  await session.step(c, 'REST DELETE node', `/nodes/${id}`, { method: 'DELETE' }, (r) => expectStatus(r, 204));
}
