// Compiled from generated/types/exnode.ts by npm run generate; do not edit. source be1ddf09af92258e519c8d80bf054dbc8de66f19913005f8573e448b5b332517 output d29d523b841a66bf4431619695bb2cd5387b65571517f0e9e3d61d89a6ed83c7
import type { Extent } from './extent.js';
import type { Reference } from './reference.js';
/**
 * A file or directory stored as extents on depots (UNIS's exnode, used by libdlt, IDMS and dlt-web). UNIS published it as .../schema/exnode/<n>/exnode#.
 */
export interface Exnode {
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
    name: string;
    /**
     * Size in bytes.
     */
    size: number;
    mode: "file" | "directory";
    /**
     * Creation time (UNIS: a 64-bit integer timestamp).
     */
    created: number;
    /**
     * Time of the last change.
     */
    modified: number;
    urn?: string;
    description?: string;
    status?: string;
    /**
     * The directory that holds it, or null.
     */
    parent: Reference | null;
    /**
     * The extents that make up a file: whole extents or references to them.
     */
    extents?: (Extent | Reference)[];
    /**
     * Free-form properties.
     */
    properties?: {
        [k: string]: unknown;
    };
    [k: string]: unknown;
}
