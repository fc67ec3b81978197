// A program that drives the REST interface with openapi-fetch on the types openapi-typescript
// makes from openapi.json (written beside this file as api.ts by test/client/openapi-fetch.test.ts).
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({
  baseUrl: process.env.TOPOCAT_URL ?? 'http://127.0.0.1:8080',
  // How openapi.json describes its parameters: `fields=id,name` (form, not exploded), and the
  // conditions as one parameter per field (form, exploded).
  querySerializer: { array: { style: 'form', explode: false }, object: { style: 'form', explode: true } },
  // A typed client names its type: an unknown id is then a 404, not UNIS's `200 []`.
  headers: { accept: 'application/json' },
});
const checked: string[] = [];
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
  checked.push(what);
}

const created = await client.POST('/nodes', { body: { name: 'fetch-1', description: 'first', location: { institution: 'IU' } } });
const node = created.data;
check(node !== undefined && !Array.isArray(node) && typeof node.id === 'string', 'POST answers the typed representation');
const id = (node as { id: string }).id;
const etag = created.response.headers.get('etag') ?? '';

// A plain read is typed as the resource: no cast, no narrowing (projections, conditions,
// expansions and the event stream are described beside the response, not in its schema).
const { data: read } = await client.GET('/nodes/{id}', { params: { path: { id } } });
check(read?.location?.institution === 'IU' && read.properties?.['vendor'] === undefined, 'a plain read, typed as the resource');

const listed = await client.GET('/nodes', { params: { query: { fields: ['id', 'name'], conditions: { name: 'fetch-1', 'location.institution': 'IU' }, limit: 5 } } });
check(Array.isArray(listed.data) && listed.data.length === 1 && Object.keys(listed.data[0] ?? {}).sort().join() === 'id,name', 'GET a projection with conditions');

const patched = await client.PATCH('/nodes/{id}', { params: { path: { id }, header: { 'If-Match': etag } }, body: { description: null, name: 'fetch-2' } });
check(patched.response.status === 200 && patched.data?.name === 'fetch-2' && patched.data.description === undefined, 'PATCH a merge patch, conditionally');

const stale = await client.PATCH('/nodes/{id}', { params: { path: { id }, header: { 'If-Match': etag } }, body: { name: 'lost' } });
check(stale.response.status === 412 && stale.error?.error.status === 412, 'a stale If-Match: 412 with the typed error body');

const history = await client.GET('/nodes/{id}', { params: { path: { id }, query: { conditions: { id: `string:${id}` } } } });
check(Array.isArray(history.data) && history.data.length === 2, `GET the versions of one resource: ${JSON.stringify(history.data ?? history.error)}`);

const head = await client.HEAD('/nodes/{id}', { params: { path: { id } } });
check(head.response.status === 200 && head.response.headers.get('etag') !== null, 'HEAD');

const removed = await client.DELETE('/nodes/{id}', { params: { path: { id } } });
check(removed.response.status === 204, 'DELETE');
const missing = await client.GET('/nodes/{id}', { params: { path: { id } } });
check(missing.response.status === 404 && missing.error?.error.message !== undefined, 'GET of a deleted resource: 404 with the typed error body');
const unisForm = await client.GET('/nodes/{id}', { params: { path: { id } }, headers: { accept: '*/*' } });
check(unisForm.response.status === 200 && Array.isArray(unisForm.data) && unisForm.data.length === 0, "GET of a deleted resource in UNIS's form (Accept: */*): 200 []");

// Free-form members: properties, location beyond its named fields, configuration.
const open = await client.POST('/nodes', { body: { name: 'open', properties: { rack: 'A1', slots: [1, 2] }, location: { institution: 'IU', building: 'Luddy' } } });
check(open.response.status === 201 && !Array.isArray(open.data) && open.data?.properties?.rack === 'A1', 'free-form properties and location');
const measurement = await client.POST('/measurements', { body: { service: 'http://h/services/s', eventTypes: ['ps:tools:blipp'], configuration: { interval: 30, probes: { ping: true } } } });
check(measurement.response.status === 201, 'a measurement with a free-form configuration');

// A directed link's {source, sink}, and ?fields=endpoints on it.
const ports = await client.POST('/ports', { body: [{ name: 'p0' }, { name: 'p1' }] });
const [p0, p1] = Array.isArray(ports.data) ? ports.data : [];
const link = await client.POST('/links', { body: { directed: true, endpoints: { source: { href: p0!.selfRef!, rel: 'full' }, sink: { href: p1!.selfRef!, ref: 'full' } }, capacity: 10_000_000_000 } });
const linkId = !Array.isArray(link.data) ? (link.data?.id ?? '') : '';
check(link.response.status === 201, 'a directed link with {source, sink}');
const endpoints = await client.GET('/links/{id}', { params: { path: { id: linkId }, query: { fields: ['endpoints'] } } });
// The answer is typed by media type: an object here, an event stream's text with text/event-stream.
const shown = typeof endpoints.data === 'object' && !Array.isArray(endpoints.data) ? endpoints.data.endpoints : undefined;
check(shown !== undefined && !Array.isArray(shown) && typeof shown === 'object' && 'source' in shown, '?fields=endpoints of a directed link');

// Composite insert: whole resources in a topology's arrays, pointers between them.
const topology = await client.POST('/topologies', {
  body: { name: 't', ports: [{ name: 'tp0' }], nodes: [{ name: 'tn', ports: [{ href: '#/ports/0', rel: 'full' }] }] },
});
check(topology.response.status === 201 && !Array.isArray(topology.data) && typeof topology.data?.nodes?.[0]?.href === 'string', 'a composite insert');

// A merge patch of a free-form member.
const patchedOpen = await client.PATCH('/nodes/{id}', { params: { path: { id: !Array.isArray(open.data) ? (open.data?.id ?? '') : '' } }, body: { properties: { rack: null, row: 3 } } });
check(patchedOpen.response.status === 200 && patchedOpen.data?.properties?.row === 3, 'a merge patch of free-form properties');

// UNIS's operators in conditions.
const found = await client.GET('/nodes', { params: { query: { conditions: { name: 'reg=^OPEN$' } } } });
check(Array.isArray(found.data) && found.data.length === 1, 'reg= in conditions');

console.log(JSON.stringify({ checked }));
