// Compiled from generated/types/port.ts by npm run generate; do not edit. source 15b36ef3169ce9437594c48738506c9f478464d123c6913b18ea2c164e729dc5 output eb03779939a8970bd6210511163f7c2c9d260d0dec5d7fd339d12f1c1d57ca25
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
