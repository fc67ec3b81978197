// Compiled from generated/types/networkresource.ts by npm run generate; do not edit. source edc7ad8fa572ffb73bae7e82e74e649bf9f37b61a4661fd55c46db381f0a01b4 output a43f664385fd10879641ee04fa332de2e3cf087d154293fa5f3c0cc6d0e6b955
import type { References } from './reference.js';
/**
 * Fields every network resource carries (UNIS's networkresource). Kinds extend it with allOf; unknown extra fields are kept because UNIS was open.
 */
export interface NetworkResource {
    /**
     * Address of the kind's schema, `{schema_base}/<kind>#`.
     */
    $schema?: string;
    /**
     * Made by the server on insert unless the client supplies one; URL-safe, never `.` or `..`.
     */
    id?: string;
    /**
     * Version timestamp in microseconds since the Unix epoch; set by the server on every write.
     */
    ts?: number;
    /**
     * `{base_url}/<collection>/<id>`; set by the server.
     */
    selfRef?: string;
    /**
     * Free-form identifier.
     */
    urn?: string;
    name?: string;
    description?: string;
    status?: string;
    lifetimes?: Lifetime[];
    location?: Location;
    /**
     * Free-form properties.
     */
    properties?: {
        [k: string]: unknown;
    };
    /**
     * Named lists of references to related resources.
     */
    relations?: {
        [k: string]: References;
    };
    [k: string]: unknown;
}
export interface Location {
    continent?: string;
    country?: string;
    zipcode?: string;
    state?: string;
    institution?: string;
    city?: string;
    street_address?: string;
    floor?: string;
    room?: string;
    cage?: string;
    rack?: string;
    shelf?: string;
    latitude?: number;
    longitude?: number;
    [k: string]: unknown;
}
export interface Lifetime {
    start?: string;
    end?: string;
    [k: string]: unknown;
}
