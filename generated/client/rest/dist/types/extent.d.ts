// Compiled from generated/types/extent.ts by npm run generate; do not edit. source a1e4268e793e7760c18108c3820ceeafbb5b49d05f534bdf7d4b120a88638bd9 output 1dfea17fe247fa6f9758bbc52167fff324270211bcf250c48c982f5d044a5b27
import type { Reference } from './reference.js';
/**
 * A chunk of a file's data at some location (UNIS's extent). UNIS published it as .../schema/exnode/<n>/extent#.
 */
export interface Extent {
    $schema?: string;
    /**
     * Made by the server on insert (URL-safe) unless the client supplies one. A client's id may hold any character except `/`, `?`, `#`, whitespace and control characters, up to 1,024 bytes of UTF-8 (URNs, and the `%3A`, `+`, `@` that UNIS tools write, are kept exactly as sent); never `.` or `..`, which no URL path can name.
     */
    id?: string;
    /**
     * Version timestamp in microseconds since the Unix epoch; set by the server.
     */
    ts?: number;
    selfRef?: string;
    /**
     * Where the extent resides, as a URI (ibp://…).
     */
    location: string;
    /**
     * Size in bytes.
     */
    size: number;
    /**
     * Offset of this chunk in the file.
     */
    offset: number;
    /**
     * Relative index of the extent.
     */
    index?: number;
    /**
     * The exnode it belongs to, or null.
     */
    parent: Reference | null;
    [k: string]: unknown;
}
