// Compiled from generated/types/extent.ts by npm run generate; do not edit. source e6537440983b7361e5ec877b8440b3302d8e67eab44e134f4f6c3cdc18c10eef output b5a6d9e0abc72d2f87c003a839288e9dccd1d2d399b54b65ac00ce676f3babd7
import type { Reference } from './reference.js';
/**
 * A chunk of a file's data at some location (UNIS's extent). UNIS published it as .../schema/exnode/<n>/extent#.
 */
export interface Extent {
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
