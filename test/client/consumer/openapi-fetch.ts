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

const listed = await client.GET('/nodes', { params: { query: { fields: ['id', 'name'], conditions: { name: 'fetch-1', 'location.institution': 'IU' }, limit: 5 } } });
check(listed.data?.length === 1 && Object.keys(listed.data[0] ?? {}).sort().join() === 'id,name', 'GET a projection with conditions');

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

console.log(JSON.stringify({ checked }));
