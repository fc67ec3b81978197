import type { NetworkResource } from './networkresource.js';
import type { References } from './reference.js';
/**
 * An administrative domain and the nodes and ports it holds.
 */
export type Domain = NetworkResource & {
    nodes?: References;
    ports?: References;
    links?: References;
    [k: string]: unknown;
};
