// Compiled from generated/types/topology.ts by npm run generate; do not edit. source 8724ceb42928d70461342086fd95323be29e200cfa095b3f014045cbe9cd1e5a output 47142dc19e36c89e4aaf7d9135e24cc013b1e488e0bc5c43a17fa7bee1fa42b6
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
