import type { NetworkResource } from './networkresource.js';
import type { References } from './reference.js';
/**
 * An ordered route through the network; in the service, ports and nodes alternate, starting and ending with a port.
 */
export type Path = NetworkResource & {
    /**
     * Same form as a Port urn, with path=<name>.
     */
    urn?: string;
    directed?: boolean;
    /**
     * Ordered; the order is kept.
     */
    hops?: References;
    [k: string]: unknown;
};
