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
