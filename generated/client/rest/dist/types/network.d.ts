import type { NetworkResource } from './networkresource.js';
import type { References } from './reference.js';
/**
 * A set of nodes, ports and links. A POST may embed whole resources in its reference arrays (composite insert).
 */
export type Network = NetworkResource & {
    ports?: References;
    nodes?: References;
    links?: References;
    [k: string]: unknown;
};
