// Compiled from generated/types/networkresource.ts by npm run generate; do not edit. source b412e42cd864bc55d84773abad396f7aad43792bd669083e22c6281aebbaca97 output 64ecd3415d7b53a807cc5d330fd6323d921f22b7ea0b53e67ae1540f86c7551c
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
     * Made by the server on insert (URL-safe) unless the client supplies one. A client's id may hold any character except `/`, `?`, `#`, whitespace and control characters, up to 1,024 bytes of UTF-8 (URNs, and the `%3A`, `+`, `@` that UNIS tools write, are kept exactly as sent); never `.` or `..`, which no URL path can name.
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
