/**
 * A JSON Schema document as it sits in `schemas/`. Its own file, below every phase: the load
 * phase reads documents of it and the HTTP contract table (model/http.ts), which the load phase
 * reads, writes one (the error body); either importing the other's file for it made a cycle.
 */
export type JsonSchema = { [key: string]: unknown };
