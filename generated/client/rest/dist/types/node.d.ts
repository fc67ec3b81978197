// Compiled from generated/types/node.ts by npm run generate; do not edit. source f4a545248fe25de95668e35128963d214ade9dc710ccecd0890e525554a469e9 output 48ffcc8efa9bef4de10c416da1ecf66e216b1bd31e15fdf85a6659c172d99453
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
