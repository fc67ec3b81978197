// Compiled from generated/types/exnode.ts by npm run generate; do not edit. source 3e0d9f5cee6f11eff64dfc84e0bb0d5e2a2201bc890eb06db1af5e98a970d032 output a9631e8d472fec9dbe2ca6095806814ae0fe2d0733771db697c3449591f9be0e
import type { Extent } from './extent.js';
import type { Reference } from './reference.js';
/**
 * A file or directory stored as extents on depots (UNIS's exnode, used by libdlt, IDMS and dlt-web). UNIS published it as .../schema/exnode/<n>/exnode#.
 */
export interface Exnode {
    $schema?: string;
    /**
     * Made by the server on insert unless the client supplies one; URL-safe, never `.` or `..`.
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
