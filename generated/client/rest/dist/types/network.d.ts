import type { NetworkResource } from './networkresource.js';
import type { References } from './reference.js';
/**
 * A set of nodes and ports.
 */
export type Network = NetworkResource & {
    ports?: References;
    nodes?: References;
    links?: References;
    [k: string]: unknown;
};
