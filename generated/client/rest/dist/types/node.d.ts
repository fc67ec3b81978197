import type { NetworkResource } from './networkresource.js';
import type { References } from './reference.js';
/**
 * A network node: a host, switch or router.
 */
export type Node = NetworkResource & {
    /**
     * The node's ports; a POST may embed whole ports (composite insert).
     */
    ports?: References;
    [k: string]: unknown;
};
