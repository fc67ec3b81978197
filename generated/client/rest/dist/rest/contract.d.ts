// Compiled from generated/rest/contract.ts by npm run generate; do not edit. source cf96e84d2e3b5ea9e96bdb7ffdbf0247c7005aa935f77d9ccd1745055bbb05af output 2d3f3b997a0d9ca4342ed89828e7183003c6f8b50e2ed89ef454d44f52b48f0a
/**
 * The one error body of the service.
 */
export interface ErrorBody {
    error: {
        /**
         * The HTTP status, repeated.
         */
        status: number;
        /**
         * What went wrong, for a person.
         */
        message: string;
        /**
         * One entry per reason (at most 100).
         */
        details?: ErrorDetail[];
        /**
         * The request id, also in `X-Request-Id` and the server log.
         */
        requestId?: string;
    };
}
/**
 * One reason the service rejected a request.
 */
export interface ErrorDetail {
    /**
     * A JSON pointer into the request body (prefixed with the array index for arrays), or the name of the offending parameter or header.
     */
    path: string;
    message: string;
}
/** Every status the service answers with the error body. */
export declare const ERROR_STATUSES: readonly [400, 401, 404, 405, 406, 409, 412, 413, 415, 500, 501, 503];
export type ErrorStatus = (typeof ERROR_STATUSES)[number];
/** The media types of the interface. */
export declare const MEDIA_TYPES: {
    readonly topology: "application/topology+json";
    readonly json: "application/json";
    readonly perfsonar: "application/perfsonar+json";
    readonly mergePatch: "application/merge-patch+json";
    readonly eventStream: "text/event-stream";
};
/** The types a resource is written and answered in; UNIS clients use perfsonar+json. */
export declare const RESOURCE_MEDIA_TYPES: readonly ["application/topology+json", "application/json", "application/perfsonar+json"];
/** The top-level paths the server answers itself; no collection may be named as one. */
export declare const SERVER_PATHS: readonly ["about", "catalog", "data", "docs", "events", "health", "metrics", "openapi.json", "register", "schema", "ui"];
/** The collections the server owns (no schema makes them): server/collections.ts binds each to its routes, in this order. */
export declare const SERVER_COLLECTIONS: readonly ["events", "data", "register"];
export type ServerCollection = (typeof SERVER_COLLECTIONS)[number];
/** The status each REST action answers with when it succeeds. */
export declare const ACTION_STATUS: {
    readonly create: 201;
    readonly list: 200;
    readonly read: 200;
    readonly replace: 201;
    readonly patch: 200;
    readonly remove: 204;
};
/** The header of the consistency token (rest-contract §15): write answers carry it, reads send it back. */
export declare const CONSISTENCY_TOKEN_HEADER = "Consistency-Token";
/**
 * The operators of the query language (rest-contract §5), written `field=<prefix>=value`, by
 * their name in the syntax tree: what follows the prefix (one value, a text taken whole, or
 * nothing), and whether the operator orders. Plain equality (`field=value`) has no prefix.
 */
export declare const QUERY_OPERATORS: {
    readonly lt: {
        readonly prefix: "lt";
        readonly takes: "value";
        readonly orders: true;
    };
    readonly lte: {
        readonly prefix: "lte";
        readonly takes: "value";
        readonly orders: true;
    };
    readonly gt: {
        readonly prefix: "gt";
        readonly takes: "value";
        readonly orders: true;
    };
    readonly gte: {
        readonly prefix: "gte";
        readonly takes: "value";
        readonly orders: true;
    };
    readonly reg: {
        readonly prefix: "reg";
        readonly takes: "text";
        readonly orders: false;
    };
    readonly not: {
        readonly prefix: "not";
        readonly takes: "value";
        readonly orders: false;
    };
    readonly numeq: {
        readonly prefix: "eq";
        readonly takes: "value";
        readonly orders: false;
    };
    readonly null: {
        readonly prefix: "null";
        readonly takes: "nothing";
        readonly orders: false;
    };
    readonly recfind: {
        readonly prefix: "recfind";
        readonly takes: "value";
        readonly orders: false;
    };
    readonly exists: {
        readonly prefix: "exists";
        readonly takes: "switch";
        readonly orders: false;
    };
};
export type QueryOperator = keyof typeof QUERY_OPERATORS;
/** The types a value may be given, `<type>:<value>` (the prefix in any letter case). */
export declare const VALUE_TYPES: readonly ["number", "integer", "boolean", "string"];
export type ValueType = (typeof VALUE_TYPES)[number];
/** Query parameters that are never conditions (besides `ts` of a single resource). */
export declare const RESERVED_PARAMETERS: readonly ["fields", "limit", "skip", "sort", "unique", "inline", "expand", "access_token", "at", "since", "until", "federate", "cert"];
export type ReservedParameter = (typeof RESERVED_PARAMETERS)[number];
