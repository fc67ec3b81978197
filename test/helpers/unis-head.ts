import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** UNIS's schema addresses (periscope-ps/unis settings, 20160630). */
const SCHEMA = (kind: string): string => `http://unis.crest.iu.edu/schema/20160630/${kind}#`;
const PSJSON = 'application/perfsonar+json';

/** One node as a UNIS HEAD instance stores and answers it. */
export interface UnisNode {
  readonly id: string;
  readonly ts: number;
  readonly name: string;
  readonly [field: string]: unknown;
}

export interface UnisHeadInstance {
  /** Its base URL (UNIS's `unis.url`). */
  readonly url: string;
  /** The `Accept` header of every list request it answered, in order. */
  readonly accepts: (string | undefined)[];
  /** POST its registration to `<lookup>/register` as UNIS HEAD's `_report_to_root` does; the answer's status. */
  register(lookup: string, options: { readonly period: number; readonly communities?: readonly string[]; readonly depth?: number }): Promise<number>;
  close(): Promise<void>;
}

/** The media type UNIS answers in: the first of Accept's, as Tornado's handler reads it (`*\/*` and none are perfsonar+json). */
function acceptedType(accept: string | undefined): string {
  const first = (accept ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
  return first === '' || first === '*/*' ? PSJSON : first;
}

/** `sort=f1:1,f2:-1` over top-level fields, as MongoDB orders strings and numbers of one type. */
function sorted(nodes: readonly UnisNode[], sort: string | null): UnisNode[] {
  // Without sort, newest first, as UNIS HEAD lists (rest-contract §5).
  const keys = sort === null ? [{ field: 'ts', direction: -1 }] : sort.split(',').map((k) => ({ field: k.split(':')[0]!, direction: k.split(':')[1] === '-1' ? -1 : 1 }));
  return [...nodes].sort((a, b) => {
    for (const { field, direction } of keys) {
      const [x, y] = [a[field] as string | number, b[field] as string | number];
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    return 0;
  });
}

/**
 * A faithful stand-in for a UNIS HEAD instance (periscope-ps/unis, `networkresourcehandler.py`)
 * for what a lookup asks of it: `GET /nodes?<query>` answered, as UNIS HEAD answers, with a JSON
 * array newest first (or in `sort`'s order, `limit` applied, `name=` conditions) and UNIS's
 * headers (`Content-Type: application/perfsonar+json; profile=<node schema>`, `X-Count`) when
 * Accept is `application/perfsonar+json`, `*\/*` or absent; and with Tornado's 500 page when Accept
 * is `application/json`, for which UNIS has no schema (`self.schemas_single[accept]` fails).
 */
export async function startUnisHead(nodes: readonly UnisNode[]): Promise<UnisHeadInstance> {
  const accepts: (string | undefined)[] = [];
  let url = '';
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const at = new URL(req.url ?? '/', url);
    if (req.method !== 'GET' || at.pathname !== '/nodes') {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=UTF-8', Server: 'TornadoServer/6.2' }).end('<html><title>404: Not Found</title><body>404: Not Found</body></html>');
      return;
    }
    accepts.push(req.headers.accept);
    const type = acceptedType(req.headers.accept);
    if (type !== PSJSON) {
      res.writeHead(500, { 'Content-Type': 'text/html; charset=UTF-8', Server: 'TornadoServer/6.2' }).end('<html><title>500: Internal Server Error</title><body>500: Internal Server Error</body></html>');
      return;
    }
    const names = at.searchParams.getAll('name');
    const limit = Number(at.searchParams.get('limit') ?? 0);
    let list = sorted(
      nodes.map((n) => ({ ...n, $schema: SCHEMA('node'), selfRef: `${url}/nodes/${n.id}` })),
      at.searchParams.get('sort'),
    ).filter((n) => names.length === 0 || names.some((name) => name.split(',').includes(n.name)));
    if (limit > 0) list = list.slice(0, limit);
    const body = JSON.stringify(list);
    res
      .writeHead(200, {
        'Content-Type': `${PSJSON}; profile=${SCHEMA('node')}`,
        'X-Count': String(list.length),
        Server: 'TornadoServer/6.2',
        'Access-Control-Allow-Origin': '*',
        'Content-Length': Buffer.byteLength(body),
      })
      .end(body);
  };
  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    accepts,
    async register(lookup, { period, communities = [], depth = 0 }) {
      // periscope-ps/unis HEAD `app.py` `_report_to_root`: the key `\$schema` (a backslash in
      // Python's literal), the accessPoint with a trailing slash, ttl = the report period, the
      // manifests as UNIS keeps them (`$shard`, `id`, `ts` in each), UNIS's headers.
      const host = new URL(url).hostname;
      const service = {
        id: `unis_${host}`,
        ts: Date.now() * 1000,
        '\\$schema': SCHEMA('service'),
        accessPoint: `${url}/`,
        name: `unis_${host}`,
        status: 'ON',
        serviceType: 'ps:tools:unis',
        ttl: period,
        communities,
        runningOn: { href: `${url}/nodes/${host}`, rel: 'full' },
        properties: {
          summary: [{ $shard: false, $collection: 'nodes', properties: { name: [...new Set(nodes.map((n) => n.name))] }, id: '5eba1a133872d96d6451a872', ts: Date.now() * 1000 }],
          depth,
        },
      };
      const registered = await fetch(`${lookup}/register`, {
        method: 'POST',
        headers: { 'Content-Type': `${PSJSON}; profile=${SCHEMA('service')}`, 'Cache-Control': 'no-cache', Accept: PSJSON, Connection: 'close' },
        body: JSON.stringify(service),
      });
      await registered.arrayBuffer();
      return registered.status;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
