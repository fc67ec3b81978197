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
