import { MEDIA_TYPES, RESOURCE_MEDIA_TYPES } from '../../model/http.js';
import type { Model } from '../../model/model.js';
import { ref, type Json } from './components.js';
import { errors, header } from './responses.js';

/** The media types the measurement store answers in (the client's Accept chooses): a resource's. */
const content = (schema: Json): Json => ({ content: Object.fromEntries(RESOURCE_MEDIA_TYPES.map((m) => [m, { schema }])) });
/** Not `measurements`: that is the Measurement kind's collection and tag. */
const tags = ['measurement store'];
const requestId = { 'X-Request-Id': header('XRequestId') };
const mid: Json = { name: 'mid', in: 'path', required: true, description: 'The series\' id: the id of its metadata resource.', schema: { type: 'string' } };
const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });

/** Schemas of the measurement store, in `components.schemas`. */
export const MEASUREMENT_SCHEMAS: Json = {
  SeriesRegistration: {
    type: 'object',
    description: 'What `POST /events` takes (BLiPP\'s `ms_client.post_events`).',
    required: ['metadata_URL', 'collection_size'],
    properties: {
      metadata_URL: { type: 'string', format: 'uri', description: 'The address of a metadata resource of this service; its id becomes the series\' mid.' },
      collection_size: { type: 'integer', minimum: 1, maximum: 1_000_000_000, description: 'The most points the series keeps; the oldest go first.' },
      ttl: { type: 'number', minimum: 0, description: 'Seconds a point lives after its `ts`; 0 (the default): for ever.' },
    },
  },
  Series: {
    type: 'object',
    description: 'A registered series.',
    required: ['id', 'selfRef', 'metadata_URL', 'collection_size', 'ttl', 'ts', 'data'],
    properties: {
      id: { type: 'string', description: 'The mid.' },
      selfRef: { type: 'string', format: 'uri' },
      metadata_URL: { type: 'string' },
      collection_size: { type: 'integer' },
      ttl: { type: 'number' },
      ts: { type: 'integer', format: 'int64', description: 'When it was registered (µs).' },
      data: { type: 'string', format: 'uri', description: 'Where its points are: `{base}/data/<mid>`.' },
    },
  },
  SeriesSummary: {
    description: 'A series with the count of its live points and their first and last `ts` (within the `ts` conditions), and UNIS\'s `mid`, `generic` and `queried`.',
    allOf: [
      ref('Series'),
      {
        type: 'object',
        required: ['mid', 'count', 'first', 'last', 'generic', 'queried'],
        properties: {
          mid: { type: 'string' },
          count: { type: 'integer' },
          first: { type: ['number', 'null'] },
          last: { type: ['number', 'null'] },
          generic: { type: 'object', properties: { count: { type: 'integer' }, capped: { const: 'Yes' }, max: { type: 'integer' } } },
          queried: { type: 'object', properties: { startTime: { type: 'number' }, endTime: { type: 'number' }, numRecords: { type: 'integer' } } },
        },
      },
    ],
  },
  DataPoint: {
    type: 'object',
    description: 'One data point: a numeric `ts` (µs) and its `value` (or what the metadata\'s `datumSchema` asks for: UNIS\'s `datum`, only `ts`; `tsdatum`, `ts` and a numeric `v`); other members are kept.',
    required: ['ts'],
    properties: { ts: { type: 'number' }, value: {} },
  },
  DataBatch: {
    type: 'object',
    description: 'Points of one series (`POST /data/<mid>` takes one, or an array of them).',
    required: ['data'],
    properties: { mid: { type: 'string', description: 'The series, when given: the one of the address (another is a 400 naming it).' }, data: { type: 'array', items: ref('DataPoint') } },
  },
  SeriesDataBatch: {
    type: 'object',
    description: 'Points of the series `mid` (an item of `POST /data`).',
    required: ['mid', 'data'],
    properties: { mid: { type: 'string' }, data: { type: 'array', items: ref('DataPoint') } },
  },
  DataAppended: {
    type: 'object',
    description: 'What an append stored, per series.',
    required: ['stored', 'series'],
    properties: {
      stored: { type: 'integer' },
      series: {
        type: 'array',
        items: {
          type: 'object',
          required: ['mid', 'stored', 'duplicates', 'expired', 'dropped'],
          properties: {
            mid: { type: 'string' },
            stored: { type: 'integer', description: 'New points stored.' },
            duplicates: { type: 'integer', description: 'Points whose (mid, ts) was stored already: ignored.' },
            expired: { type: 'integer', description: 'Points older than the ttl: not stored.' },
            dropped: { type: 'integer', description: 'Older points deleted to keep the cap, and expired ones pruned.' },
          },
        },
      },
    },
  },
};

/** `/events` or `/data` (`segment`): UNIS's measurement store (docs/measurements.md), described by hand. */
export function measurementPaths(model: Model, used: Set<number>, segment: 'events' | 'data'): Json {
  return Object.fromEntries(Object.entries(storePaths(model, used)).filter(([path]) => path.split('/')[1] === segment));
}

function storePaths(model: Model, used: Set<number>): Json {
  const fail = (...statuses: number[]): Json => errors(model, [...statuses, 401, 500, 503].sort(), used);
  const rangeParameters: Json[] = [
    { name: 'ts', in: 'query', description: '`ts=gte=<µs>` and `ts=lte=<µs>` (also `gt`, `lt`; repeat the parameter for both ends): count only points within.', schema: { type: 'string' } },
  ];
  const listEvents = {
    operationId: 'listSeries',
    summary: 'The registered series, with their counts of points',
    tags,
    parameters: [{ name: 'mids', in: 'query', description: 'Only these series (`mids=a,b`); an unknown mid is left out.', schema: { type: 'string' } }, ...rangeParameters],
    responses: { 200: { description: 'One entry per series, by mid', headers: requestId, ...content({ type: 'array', items: ref('SeriesSummary') }) }, ...fail(400, 406) },
  };
  const readEvents = {
    operationId: 'readSeries',
    summary: 'One series, with its count of points',
    tags,
    parameters: rangeParameters,
    responses: { 200: { description: 'The series', headers: requestId, ...content(ref('SeriesSummary')) }, ...fail(400, 404, 406) },
  };
  const readData = {
    operationId: 'readData',
    summary: 'The points of a series',
    description: 'Conditions on `ts` and `value` in the query language (`ts=gte=…`, `value=gt=5`), `sort` by them, `limit` (default 1,000), `skip`. Newest first unless sorted; in UNIS form (an `Accept` that names neither `application/json` nor `application/topology+json`) without `sort`, the same newest points oldest first, as UNIS ordered them. With `Accept: text/event-stream`: the points of every later append as `{"<mid>": [points]}`, resumable with `Last-Event-ID`.',
    tags,
    parameters: [param('Conditions'), param('Limit'), param('Skip'), param('Sort'), param('LastEventId'), param('AccessToken')],
    responses: {
      200: {
        description: 'The points that match (with `Accept: text/event-stream`: the appends, as they happen)',
        headers: requestId,
        content: {
          ...(content({ type: 'array', items: ref('DataPoint') }).content as Json),
          [MEDIA_TYPES.eventStream]: { schema: { type: 'string', description: 'Events `id: <event id>`, `event: POST` (`data: {"<mid>": [points]}`) or `DELETE` (`data: {"id": "<mid>"}`).' } },
        },
      },
      ...fail(400, 404, 406),
    },
  };
  const append = (operationId: string, summary: string, body: Json, statuses: number[]): Json => ({
    operationId,
    summary,
    description: 'All or nothing. Each point is checked against its series\' datum rule; a (mid, ts) stored already is ignored; the cap drops the oldest points, the ttl the expired ones.',
    tags,
    requestBody: { required: true, ...content(body) },
    responses: { 201: { description: 'Stored', headers: requestId, ...content(ref('DataAppended')) }, ...fail(...statuses) },
  });
  const remove = (operationId: string): Json => ({
    operationId,
    summary: 'Delete a series: its points and its registration',
    tags,
    responses: { 204: { description: 'Deleted', headers: requestId }, ...fail(404) },
  });
  const head = (get: Json): Json => ({
    ...get,
    operationId: `${String(get.operationId)}Head`,
    summary: `${String(get.summary)} (headers only)`,
    responses: Object.fromEntries(Object.entries(get.responses as Record<string, Json>).map(([status, r]) => [status, '$ref' in r ? r : { description: r.description, headers: r.headers }])),
  });
  return {
    '/events': {
      post: {
        operationId: 'registerSeries',
        summary: 'Register the series of a metadata resource',
        description: 'A second registration of the same metadata changes the cap and the ttl (200).',
        tags,
        requestBody: { required: true, ...content(ref('SeriesRegistration')) },
        responses: {
          200: { description: 'Registered already: cap and ttl changed', headers: { Location: header('Location'), ...requestId }, ...content(ref('Series')) },
          201: { description: 'Registered; `Location` is where its points are', headers: { Location: header('Location'), ...requestId }, ...content(ref('Series')) },
          ...fail(400, 406, 413, 415),
        },
      },
      get: listEvents,
      head: head(listEvents),
    },
    '/events/{mid}': {
      parameters: [mid],
      get: readEvents,
      head: head(readEvents),
      delete: remove('removeSeries'),
    },
    '/data': {
      post: append('appendData', 'Append points to series', { anyOf: [{ type: 'array', items: ref('SeriesDataBatch') }, ref('SeriesDataBatch')] }, [400, 404, 406, 413, 415]),
    },
    '/data/{mid}': {
      parameters: [mid],
      // UNIS's forms too: `{mid, data}` and `[{mid, data}, …]` (rest-contract §14).
      post: append('appendSeriesData', 'Append points to one series', { anyOf: [ref('DataBatch'), { type: 'array', items: ref('DataBatch') }] }, [400, 404, 406, 413, 415]),
      get: readData,
      head: head(readData),
      delete: remove('removeSeriesData'),
    },
  };
}
