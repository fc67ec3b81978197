// Compiled from generated/types/path.ts by npm run generate; do not edit. source abf20b7a37d6a25fdb7c408991f37108a9fb967a8c030dd30a48af9151dbc7da output 68ba0f1d590c489eb6c373c8b5a1140e7d45d11c7d0944cb4e4d89d394d92128
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
