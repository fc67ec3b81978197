// Compiled from generated/types/metadata.ts by npm run generate; do not edit. source 7c8ddccc4ef8adc8ab517e3732b3fa1f5b2faaa5e1f9b8077a71e4900d3041f6 output fb5a5e7ea467c49ccfc38a4e7d32f2396c72cc04c0ca0cf54a39f438ce441429
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
