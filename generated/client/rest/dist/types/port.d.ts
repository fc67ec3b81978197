import type { NetworkResource } from './networkresource.js';
/**
 * A network interface of a node.
 */
export type Port = NetworkResource & {
    /**
     * Colon-separated identifier with key=value parts such as domain=<domain> and port=<name>.
     */
    urn?: string;
    /**
     * Capacity in bits per second.
     */
    capacity?: number;
    [k: string]: unknown;
};
