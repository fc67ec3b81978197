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
