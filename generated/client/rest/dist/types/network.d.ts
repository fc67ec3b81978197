// Compiled from generated/types/network.ts by npm run generate; do not edit. source 98a8afa1fcfa5bf5acb5fc633d24e1dde7cb713077765ce5f7e75e8a1e1cd45f output 57ea9db3e455593eac2b6f03d83be6a7a7fa19987c1615eec63cdc70496d60f3
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
