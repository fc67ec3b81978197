/**
 * The mix of writes (docs/scaling.md): POST of a new node 40 %, re-POST of a stored one
 * with a changed field 10 %, merge-PATCH 30 %, PUT of the whole node 10 %, DELETE 10 %. Each client
 * writes only nodes of its own, and never two requests to one node at once, so every request has
 * one right answer however the answers overtake each other (no 404 of a node deleted a moment
 * before, no 412): a failure is the server's.
 */
import type { OpenLoopRequest } from '../harness/open-loop.js';
import { node } from './topology.js';

/** Kind → share of the writes. */
export const MIX = [
  ['POST new', 0.4],
  ['re-POST', 0.1],
  ['PATCH', 0.3],
  ['PUT', 0.1],
  ['DELETE', 0.1],
] as const;

type Kind = (typeof MIX)[number][0];

const TYPED = { accept: 'application/json' } as const;
const JSON_BODY = { ...TYPED, 'content-type': 'application/json' } as const;

function kind(): Kind {
  let x = Math.random();
  for (const [k, share] of MIX) {
    if (x < share) return k;
    x -= share;
  }
  return 'POST new';
}

/** One client's nodes: the idle ones (no request in flight) a write may pick. */
export class MixedWriter {
  private readonly idle: string[] = [];
  private made = 0;

  constructor(
    private readonly client: number,
    private readonly auth: Readonly<Record<string, string>>,
  ) {}

  /** The nodes it starts with (posted before the measured window): `n` of its own. */
  preload(n: number): Record<string, unknown>[] {
    return Array.from({ length: n }, () => {
      const body = this.body(this.fresh());
      this.idle.push(body.id as string);
      return body;
    });
  }

  next(): OpenLoopRequest {
    const k = this.idle.length === 0 ? 'POST new' : kind();
    if (k === 'POST new') {
      const id = this.fresh();
      return this.request('POST', '/nodes', JSON_BODY, this.body(id), id, (s) => s === 201, true);
    }
    const id = this.idle.splice(Math.floor(Math.random() * this.idle.length), 1)[0]!;
    switch (k) {
      case 're-POST':
        return this.request('POST', '/nodes', JSON_BODY, { ...this.body(id), description: `re-posted ${this.made}` }, id, (s) => s === 201, true);
      case 'PATCH':
        return this.request('PATCH', `/nodes/${id}`, { ...TYPED, 'content-type': 'application/merge-patch+json' }, { description: `patched ${this.made++}` }, id, (s) => s === 200, true);
      case 'PUT':
        return this.request('PUT', `/nodes/${id}`, JSON_BODY, { ...this.body(id), description: `put ${this.made++}` }, id, (s) => s === 201 || s === 200, true);
      case 'DELETE':
        return this.request('DELETE', `/nodes/${id}`, TYPED, undefined, id, (s) => s === 204, false);
    }
  }

  private fresh(): string {
    return `w${this.client}-${this.made++}`;
  }

  private body(id: string): Record<string, unknown> {
    return { ...node(0), id, name: id };
  }

  private request(method: OpenLoopRequest['method'], path: string, headers: Readonly<Record<string, string>>, body: unknown, id: string, expect: (status: number) => boolean, keeps: boolean): OpenLoopRequest {
    return {
      method,
      path,
      headers: { ...this.auth, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      expect,
      done: (status) => {
        if (keeps && expect(status)) this.idle.push(id);
      },
    };
  }
}
