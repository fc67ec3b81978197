import type { Reference } from './reference.js';
/**
 * Describes a measurement stream about a subject. Closed: accepts only its own fields.
 */
export interface Metadata {
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
     * The resource measured.
     */
    subject: Reference;
    eventType: string;
    parameters?: MetadataParameters;
}
export interface MetadataParameters {
    collectionInterval?: number;
    /**
     * Address of form {schema_base}/datum#.
     */
    datumSchema?: string;
    [k: string]: unknown;
}
