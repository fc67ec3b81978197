// Compiled from generated/types/metadata.ts by npm run generate; do not edit. source 635ab08885747cbb2f4d84b8c2502ce0ae37cbe7894c4dc570cba24ae1657a79 output f71b2aa02e2618765ee8f4cc817934bb079ad6a89c25777bacbeaae88c02fc6d
import type { Reference } from './reference.js';
/**
 * Describes a measurement stream about a subject. Closed: accepts only its own fields.
 */
export interface Metadata {
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
