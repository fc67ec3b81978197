// Compiled from generated/types/domain.ts by npm run generate; do not edit. source 081e4e15b5dc65ed42ee14387e25782ca46bb8f61e3bd76d8b0a55470d9e564a output 704d2e19446b7c9ae8b0ae0a9e68a1ab9e2b221a5d726e4b96bf73085df967c6
import type { NetworkResource } from './networkresource.js';
import type { References } from './reference.js';
/**
 * An administrative domain and the resources it holds. A POST may embed whole resources in its reference arrays (composite insert).
 */
export type Domain = NetworkResource & {
    nodes?: References;
    ports?: References;
    links?: References;
    paths?: References;
    networks?: References;
    domains?: References;
    [k: string]: unknown;
};
