import type { NetworkResource } from './networkresource.js';
import type { References } from './reference.js';
/**
 * A named view that groups domains, networks, nodes, ports, links and paths by reference (UNIS's topology). A POST may embed whole resources in these arrays (composite insert): each is stored in its own collection and replaced by a reference.
 */
export type Topology = NetworkResource & {
    domains?: References;
    networks?: References;
    nodes?: References;
    ports?: References;
    links?: References;
    paths?: References;
    [k: string]: unknown;
};
