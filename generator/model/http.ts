/**
 * The HTTP contract, in one table: the media types, the paths the server answers itself (which
 * no collection may take), the statuses of each REST action, the query language's grammar
 * (operators, typed values, reserved parameters), every status the server answers with the
 * error body, the exception class the REST client raises for it, and the shape of the body. The OpenAPI description, the generator's collection-name check, the server's contract
 * module (generated/rest/contract.ts, read by the server and the UNIS socket) and the client
 * runtime are all made from it.
 */
import type { JsonSchema } from '../json-schema.js';

/** The six REST actions (model.ts binds each kind's operations to them; this table gives their statuses). */
export type RestAction = 'create' | 'list' | 'read' | 'replace' | 'patch' | 'remove';

/** The media types of the interface. */
export const MEDIA_TYPES = {
  topology: 'application/topology+json',
  json: 'application/json',
  perfsonar: 'application/perfsonar+json',
  mergePatch: 'application/merge-patch+json',
  eventStream: 'text/event-stream',
} as const;

/** The types a resource is written and answered in; UNIS clients use perfsonar+json. */
export const RESOURCE_MEDIA_TYPES: readonly string[] = [MEDIA_TYPES.topology, MEDIA_TYPES.json, MEDIA_TYPES.perfsonar];

export interface ServerPath {
  /** The first segment of the path. */
  readonly segment: string;
  readonly meaning: string;
}

/**
 * The collections the server owns: no schema of schemas/ makes them, and the server binds each
 * to its routes (server/collections.ts, from generated/rest/contract.ts `SERVER_COLLECTIONS`),
 * the OpenAPI description describes each (emit/openapi/index.ts), both from this one list, in
 * its order.
 */
export const SERVER_COLLECTIONS = [
  { segment: 'events', meaning: "the measurement store's series" },
  { segment: 'data', meaning: "the measurement store's points" },
  { segment: 'register', meaning: "UNIS's registrations (federation)" },
] as const satisfies readonly ServerPath[];

export type ServerCollectionName = (typeof SERVER_COLLECTIONS)[number]['segment'];

/** The top-level paths the server answers itself (its own collections among them); no collection may be named as one. */
export const SERVER_PATHS: readonly ServerPath[] = [
  { segment: 'about', meaning: "UNIS's description of the instance" },
  { segment: 'catalog', meaning: 'the SOAP catalog (its default path)' },
  { segment: 'docs', meaning: 'the reference page' },
  { segment: 'health', meaning: 'liveness and the database' },
  { segment: 'metrics', meaning: 'Prometheus metrics' },
  { segment: 'openapi.json', meaning: 'the OpenAPI description' },
  { segment: 'schema', meaning: 'the JSON Schemas (the default schema base)' },
  { segment: 'ui', meaning: 'the browser interface' },
  ...SERVER_COLLECTIONS,
].sort((a, b) => (a.segment < b.segment ? -1 : 1));

/** What each REST action answers: its status on success and the error statuses it may answer besides ALWAYS. */
export interface ActionStatuses {
  readonly success: number;
  readonly errors: readonly number[];
  /**
   * How UNIS's clients are answered otherwise (rest-contract §3, §4), which the OpenAPI
   * description of the action says. A request is in UNIS form when its `Accept` names neither
   * `application/json` nor `application/topology+json` (server/wire/media.ts typedRequest); a
   * body is in UNIS's media type when its `Content-Type` names `application/perfsonar+json`.
   */
  readonly unisForm?: string;
}

/** Who is answered in UNIS form, as the descriptions say it. */
const UNIS_FORM = 'in UNIS form (an `Accept` that names neither `application/json` nor `application/topology+json`: none, `*/*`, `application/perfsonar+json`, what UNIS clients send)';

/** Errors every collection operation can answer: credentials, a failure, an unreachable database. */
export const ALWAYS: readonly number[] = [401, 500, 503];

export const ACTION_STATUSES: Readonly<Record<RestAction, ActionStatuses>> = {
  // Writes answer 405 on a lookup: its collections are written at its instances (docs/federation.md).
  create: { success: 201, errors: [400, 405, 406, 409, 412, 413, 415], unisForm: `An array of one element ${UNIS_FORM} is answered as UNIS answered it: the one object, with \`Location\`.` },
  list: { success: 200, errors: [400, 406] },
  read: { success: 200, errors: [400, 404, 406], unisForm: `An unknown id is a 404 to typed requests; ${UNIS_FORM} it is UNIS's \`200 []\`.` },
  replace: {
    success: 201,
    errors: [400, 404, 405, 406, 409, 412, 413, 415],
    unisForm: 'A body whose `Content-Type` is UNIS\'s `application/perfsonar+json` updates as UNIS did: its members are set onto the newest representation, the members it does not name are kept, and the result is validated and stored as a new version.',
  },
  patch: { success: 200, errors: [400, 404, 405, 406, 412, 413, 415] },
  remove: { success: 204, errors: [400, 404, 405, 412], unisForm: `An unknown or deleted id is a 404 to typed requests and to a conditional one (\`If-Match\`); ${UNIS_FORM} it is UNIS's \`204\`.` },
};

/**
 * One operator of the query language (rest-contract §5), written `field=<prefix>=value`. Plain
 * equality (`field=value`, a list for IN) has no prefix and is not in the table.
 */
export interface QueryOperator {
  /** Its name in the parser's syntax tree (server/query/syntax.ts `Operator`), e.g. `numeq`. */
  readonly operator: string;
  /** How it is written, before its `=`: `eq` for `a=eq=5`. */
  readonly prefix: string;
  /**
   * What follows the prefix: one value, a text taken whole (commas and all: a pattern), nothing,
   * or a switch (`true`/`false`, any letter case, or 1/0; anything else is a 400).
   */
  readonly takes: 'value' | 'text' | 'nothing' | 'switch';
  /** It orders: an untyped value that reads as a number compares as a number, whatever the field. */
  readonly orders: boolean;
  readonly meaning: string;
  /** How the OpenAPI description of the conditions shows it, unless it orders (those are listed together). */
  readonly described?: string;
}

/**
 * The operators of the query language. The server parses by this table (generated/rest/contract.ts),
 * and the REST client sends a string value that begins with any of these prefixes and `=` as
 * `string:<value>`, so that the service reads it as that string and not as the operator.
 */
export const QUERY_OPERATORS: readonly QueryOperator[] = [
  { operator: 'lt', prefix: 'lt', takes: 'value', orders: true, meaning: 'less than' },
  { operator: 'lte', prefix: 'lte', takes: 'value', orders: true, meaning: 'less than or equal' },
  { operator: 'gt', prefix: 'gt', takes: 'value', orders: true, meaning: 'greater than' },
  { operator: 'gte', prefix: 'gte', takes: 'value', orders: true, meaning: 'greater than or equal' },
  { operator: 'reg', prefix: 'reg', takes: 'text', orders: false, meaning: 'a regular expression (RE2), case-insensitive (UNIS)', described: '`a=reg=<RE2 pattern>` (case-insensitive)' },
  { operator: 'not', prefix: 'not', takes: 'value', orders: false, meaning: 'not equal, compared case-insensitively (UNIS)', described: '`a=not=v` (not equal, case-insensitive)' },
  { operator: 'numeq', prefix: 'eq', takes: 'value', orders: false, meaning: 'numeric equality (UNIS; the value read as a number)', described: '`a=eq=5` (numeric equality)' },
  { operator: 'null', prefix: 'null', takes: 'nothing', orders: false, meaning: 'null or absent (UNIS)', described: '`a=null=` (null or absent)' },
  { operator: 'recfind', prefix: 'recfind', takes: 'value', orders: false, meaning: "on /exnodes: the directory's subtree (UNIS)", described: 'on `/exnodes` `parent=recfind=<directory id>` (its whole subtree)' },
  {
    operator: 'exists',
    prefix: 'exists',
    takes: 'switch',
    orders: false,
    meaning: "present (true) or absent (false), null counting as present (UNIS HEAD's $exists)",
    described: "`a=exists=true` / `a=exists=false` (present / absent; a null value is present, as MongoDB's `$exists`)",
  },
];

/** A typed value, `<type>:<value>` (the prefix in any letter case). */
export interface ValueType {
  readonly type: string;
  /** A value of the type, for descriptions (`number:5`). */
  readonly example: string;
}

export const VALUE_TYPES: readonly ValueType[] = [
  { type: 'number', example: '5' },
  { type: 'integer', example: '5' },
  { type: 'boolean', example: 'true' },
  { type: 'string', example: '5' },
];

export interface ReservedParameter {
  readonly name: string;
  readonly meaning: string;
}

/** Query parameters that are never conditions (besides `ts` of a single resource, which selects a version). */
export const RESERVED_PARAMETERS: readonly ReservedParameter[] = [
  { name: 'fields', meaning: 'projection' },
  { name: 'limit', meaning: 'paging' },
  { name: 'skip', meaning: 'paging' },
  { name: 'sort', meaning: 'order' },
  { name: 'unique', meaning: 'one entry per resource id' },
  { name: 'inline', meaning: "UNIS HEAD's extents of exnodes" },
  { name: 'expand', meaning: 'references replaced by the resources' },
  { name: 'access_token', meaning: 'a credential (RFC 6750 §2.3, for browsers\' event streams), read by the authentication' },
  { name: 'at', meaning: 'the state at an instant' },
  { name: 'since', meaning: 'the changes after an instant' },
  { name: 'until', meaning: 'the changes up to an instant' },
  { name: 'federate', meaning: "a lookup's federated query (docs/federation.md)" },
  { name: 'cert', meaning: 'reserved by UNIS HEAD, which ignores it; so does this service' },
];

/** The query language's grammar (rest-contract §5), as the contract table has it. */
export interface QueryGrammar {
  readonly operators: readonly QueryOperator[];
  readonly valueTypes: readonly ValueType[];
  readonly reserved: readonly ReservedParameter[];
}

export const QUERY_GRAMMAR: QueryGrammar = { operators: QUERY_OPERATORS, valueTypes: VALUE_TYPES, reserved: RESERVED_PARAMETERS };

/**
 * The consistency token (rest-contract §15): every write answer of a server with standbys carries
 * it, and a read that sends it back is served by a standby once that has replayed that far,
 * without asking the primary. The REST client keeps the newest it was answered and sends it.
 */
export const CONSISTENCY_TOKEN = {
  header: 'Consistency-Token',
  answered:
    "With standbys (DATABASE_READ_URLS): the primary's WAL position once this write was acknowledged (`16/B374D848`). Send it back on later reads: a standby serves them once it has replayed that far, with no question to the primary. Absent without standbys.",
  sent: 'The `Consistency-Token` of the last write this client saw answered (the REST client sends its own): the read is served once a standby has replayed that far, without asking the primary, so it sees that write and every one before it. Without it, the read sees every write acknowledged before it arrived. Ignored without standbys, and when malformed.',
} as const;

/** The contract besides the error answers, as the model carries it. */
export interface HttpContract {
  readonly media: typeof MEDIA_TYPES;
  readonly resourceMedia: readonly string[];
  readonly serverPaths: readonly ServerPath[];
  readonly serverCollections: typeof SERVER_COLLECTIONS;
  readonly actions: Readonly<Record<RestAction, ActionStatuses>>;
  readonly always: readonly number[];
  readonly query: QueryGrammar;
  readonly consistencyToken: typeof CONSISTENCY_TOKEN;
}

export const HTTP_CONTRACT: HttpContract = {
  media: MEDIA_TYPES,
  resourceMedia: RESOURCE_MEDIA_TYPES,
  serverPaths: SERVER_PATHS,
  serverCollections: SERVER_COLLECTIONS,
  actions: ACTION_STATUSES,
  always: ALWAYS,
  query: QUERY_GRAMMAR,
  consistencyToken: CONSISTENCY_TOKEN,
};

export interface ErrorStatus {
  readonly status: number;
  /** The REST client's exception class for this status, e.g. `NotFoundError`. */
  readonly className: string;
  /** The class it extends: `TopocatError`, or `ServerError` for the 5xx family. */
  readonly parent: 'TopocatError' | 'ServerError';
  /** When the service answers with it. */
  readonly meaning: string;
}

export const ERROR_STATUSES: readonly ErrorStatus[] = [
  { status: 400, className: 'BadRequestError', parent: 'TopocatError', meaning: 'validation failed, malformed JSON, or a bad query parameter or header' },
  { status: 401, className: 'UnauthorizedError', parent: 'TopocatError', meaning: 'credentials missing, unknown or without the scope the operation needs' },
  { status: 404, className: 'NotFoundError', parent: 'TopocatError', meaning: 'no such collection, path, id or version' },
  { status: 405, className: 'MethodNotAllowedError', parent: 'TopocatError', meaning: 'the path does not answer this method' },
  { status: 406, className: 'NotAcceptableError', parent: 'TopocatError', meaning: 'no media type the client accepts can be produced' },
  { status: 409, className: 'ConflictError', parent: 'TopocatError', meaning: 'a live resource has that id, or a PUT replays an existing `ts`' },
  { status: 412, className: 'PreconditionFailedError', parent: 'TopocatError', meaning: '`If-Match` does not match the newest representation' },
  { status: 413, className: 'PayloadTooLargeError', parent: 'TopocatError', meaning: 'the body or a POSTed array is over the limit' },
  { status: 415, className: 'UnsupportedMediaTypeError', parent: 'TopocatError', meaning: 'the Content-Type is not one the operation takes' },
  { status: 500, className: 'ServerError', parent: 'TopocatError', meaning: 'the operation failed; the request id identifies it in the server log' },
  { status: 501, className: 'NotImplementedError', parent: 'ServerError', meaning: 'the method is not implemented' },
  { status: 503, className: 'ServiceUnavailableError', parent: 'ServerError', meaning: 'the database is unavailable, or the service is still starting (every request until it is ready); retry after `Retry-After` seconds' },
];

/** The one error body, as JSON Schema; `ErrorDetail` is its named part. */
export const ERROR_BODY: JsonSchema = {
  title: 'ErrorBody',
  description: 'The one error body of the service.',
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['status', 'message'],
      additionalProperties: false,
      properties: {
        status: { type: 'integer', description: 'The HTTP status, repeated.' },
        message: { type: 'string', description: 'What went wrong, for a person.' },
        details: {
          type: 'array',
          description: 'One entry per reason (at most 100).',
          items: { $ref: '#/$defs/ErrorDetail' },
        },
        requestId: { type: 'string', description: 'The request id, also in `X-Request-Id` and the server log.' },
      },
    },
  },
  $defs: {
    ErrorDetail: {
      title: 'ErrorDetail',
      description: 'One reason the service rejected a request.',
      type: 'object',
      required: ['path', 'message'],
      additionalProperties: false,
      properties: {
        path: { type: 'string', description: 'A JSON pointer into the request body (prefixed with the array index for arrays), or the name of the offending parameter or header.' },
        message: { type: 'string' },
      },
    },
  },
};
