// Compiled from generated/types/link.ts by npm run generate; do not edit. source 6bd02571002ae83120f5b02785266459f98b6813f361990eb5774da2ee62d79c output 684ba0039b7faca236c492148670fcc8c9723fa6adefff3732924ec86451d826
import type { NetworkResource } from './networkresource.js';
import type { EndpointReference } from './reference.js';
/**
 * A connection between two ports. `directed` selects the form of `endpoints`.
 */
export type Link = NetworkResource & {
    /**
     * True: endpoints is {source, sink}. False or absent: endpoints is an array of two references.
     */
    directed?: boolean;
    /**
     * Capacity in bits per second.
     */
    capacity?: number;
    /**
     * Checked against `directed` by the if/then/else below, so a mismatch is reported at /endpoints.
     */
    endpoints: DirectedEndpoints | UndirectedEndpoints;
    [k: string]: unknown;
};
export interface DirectedEndpoints {
    source: EndpointReference;
    sink: EndpointReference;
    [k: string]: unknown;
}
/**
 * @minItems 2
 * @maxItems 2
 */
export type UndirectedEndpoints = [EndpointReference, EndpointReference];
