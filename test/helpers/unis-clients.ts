/**
 * The headers each UNIS client sends, as unis-clients.md §2 records them (and the replays in
 * test/unis/ send them), for tests that hold one rule against every client: a write's (with
 * its Content-Type) and a read's. `typed` says whether its `Accept` names `application/json` or
 * `application/topology+json` without naming `application/perfsonar+json` at its highest `q`
 * (server/wire/media.ts typedRequest), `unisBody` whether its body is read as UNIS's media type
 * (its Content-Type names `application/perfsonar+json`, or it has none: rest-contract §2,
 * revised 2026-11-29).
 */
export interface ClientHeaders {
  readonly write: readonly (readonly [string, string])[];
  readonly read: readonly (readonly [string, string])[];
  readonly typed: boolean;
  readonly unisBody: boolean;
}

export const PSJSON = 'application/perfsonar+json';
/** The schema address every client maintained after 2016 writes (unis-clients.md §2.7). */
export const unisSchema = (kind: string): string => `http://unis.crest.iu.edu/schema/20160630/${kind}#`;

/** UNISrt's aiohttp calls (periscope-ps/UNISrt@5647648 `unis/rest/unis_client.py:249,517`). */
export const UNISRT_AIOHTTP: [string, string][] = [
  ['Content-Type', PSJSON],
  ['Accept', PSJSON],
  ['Accept-Encoding', 'gzip, deflate'],
  ['User-Agent', 'Python/3.11 aiohttp/3.8.4'],
];

/** UNISrt's python-requests calls (`/about` with perfsonar+json in `Accept` and `Content-Type`, schemas with an `Accept` of any type: `unis_client.py:213-258`). */
export const unisrtRequests = (accept: string, extra: [string, string][] = []): [string, string][] => [
  ['User-Agent', 'python-requests/2.28.1'],
  ['Accept-Encoding', 'gzip, deflate'],
  ['Accept', accept],
  ['Connection', 'keep-alive'],
  ...extra,
];

const BLIPP_AGENT = 'python-requests/2.6.0 CPython/2.7.5 Linux/3.10.0';

/**
 * BLiPP's PeriscopeClient.do_req (periscope-ps/blipp@002d08e `blipp/periscope_client.py:80-82`):
 * for a collection of its SCHEMAS, perfsonar+json with the schema as `profile` after a space (no
 * `;`); for any other (`events`, `data`), requests' own headers.
 */
export const blippHeaders = (schema: string | undefined): [string, string][] => [
  ['Connection', 'keep-alive'],
  ['Accept-Encoding', 'gzip, deflate'],
  ...(schema ? ([['accept', PSJSON], ['User-Agent', BLIPP_AGENT], ['content-type', `${PSJSON} profile=${schema}`]] as [string, string][]) : ([['Accept', '*/*'], ['User-Agent', BLIPP_AGENT]] as [string, string][])),
];

/** BLiPP's measurement-store client (`blipp/ms_client.py:27-62`): an Accept of any type; a body's schema as `profile`. */
export const msClientHeaders = (schema: string | undefined): [string, string][] => [
  ['User-Agent', BLIPP_AGENT],
  ['Accept-Encoding', 'gzip, deflate'],
  [schema ? 'accept' : 'Accept', '*/*'],
  ['Connection', 'keep-alive'],
  ...(schema ? ([['content-type', `${PSJSON} profile=${schema}`]] as [string, string][]) : []),
];

/** dlt-web's `request.get({url})`: no headers of its own (datalogistics/dlt-web@8eec5b2 `app/routes.js:340-405`). */
export const DLT_WEB: [string, string][] = [['Connection', 'close']];

/** peri-js (periscope-ps/periscope@5e6df8e `peri-js/app/routes.js:146-183`): no Accept. */
export const PERI_JS: [string, string][] = [['Content-type', PSJSON], ['connection', 'keep-alive']];

/**
 * Python `requests` with `data=json.dumps(doc)` (requests 2.28, `requests/models.py`
 * prepare_body: a str body gets no Content-Type): the default headers and no Content-Type.
 * What scripts written for UNIS send (unisencoder's users, peri-client-scripts' helpers).
 */
export const PYTHON_REQUESTS_DATA: [string, string][] = [
  ['User-Agent', 'python-requests/2.28.1'],
  ['Accept-Encoding', 'gzip, deflate'],
  ['Accept', '*/*'],
  ['Connection', 'keep-alive'],
];

/** libunis-c (periscope-ps/libunis-c@9d997dc `src/curl_context.c:146-152`): lists in both. */
export const LIBUNIS_C: [string, string][] = [
  ['Accept', 'text/html,application/json,application/perfsonar+json'],
  ['Content-type', 'application/json,application/perfsonar+json'],
];

/** The clients, by name; `kind` is the one BLiPP's profile names. */
export function unisClients(kind: string): [string, ClientHeaders][] {
  return [
    ['UNISrt (aiohttp)', { write: UNISRT_AIOHTTP, read: UNISRT_AIOHTTP, typed: false, unisBody: true }],
    ['UNISrt (python-requests)', { write: unisrtRequests(PSJSON, [['Content-Type', PSJSON]]), read: unisrtRequests(PSJSON, [['Content-Type', PSJSON]]), typed: false, unisBody: true }],
    ['BLiPP', { write: blippHeaders(unisSchema(kind)), read: blippHeaders(unisSchema(kind)), typed: false, unisBody: true }],
    ['BLiPP ms_client', { write: msClientHeaders(unisSchema(kind)), read: msClientHeaders(unisSchema(kind)), typed: false, unisBody: true }],
    ['dlt-web', { write: DLT_WEB, read: DLT_WEB, typed: false, unisBody: true }],
    ['peri-js', { write: PERI_JS, read: PERI_JS, typed: false, unisBody: true }],
    // perfsonar+json at the highest q of its Accept: UNIS form (rest-contract §2, revised 2026-11-29).
    ['libunis-c', { write: LIBUNIS_C, read: LIBUNIS_C, typed: false, unisBody: true }],
    ['Python requests (data=)', { write: PYTHON_REQUESTS_DATA, read: PYTHON_REQUESTS_DATA, typed: false, unisBody: true }],
  ];
}

/** Typed clients beside them: the SDK and `/ui` (topology+json), a plain JSON client. */
export const TYPED_CLIENTS: [string, ClientHeaders][] = [
  ['the SDK', { write: [['Accept', 'application/topology+json'], ['Content-Type', 'application/topology+json']], read: [['Accept', 'application/topology+json']], typed: true, unisBody: false }],
  ['a JSON client', { write: [['Accept', 'application/json'], ['Content-Type', 'application/json']], read: [['Accept', 'application/json']], typed: true, unisBody: false }],
];
