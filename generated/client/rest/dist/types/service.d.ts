// Compiled from generated/types/service.ts by npm run generate; do not edit. source c7a931b5ade0635c7fddab40e412423081ad29057653b728a833c8895a5419c3 output 77cbed580949c4f6e2d594efdb02c2fba7c3f1581d8734a8a0e540ed4235a8dd
import type { NetworkResource } from './networkresource.js';
import type { Reference } from './reference.js';
/**
 * A service running on a node, such as a measurement point.
 */
export type Service = NetworkResource & {
    /**
     * Where the service answers. UNIS clients write values that are not URLs ("ibp://host:port"), so it is not checked as one.
     */
    accessPoint?: string;
    /**
     * "ON" is used; other values are allowed.
     */
    status?: string;
    /**
     * What the service is: UNIS clients write plain names ("ibp_server") as well as URLs, so it is not checked as a URL.
     */
    serviceType?: string;
    /**
     * Time to live in seconds.
     */
    ttl?: number;
    /**
     * The node the service runs on.
     */
    runningOn?: Reference;
    properties?: ServiceProperties;
    [k: string]: unknown;
};
export interface ServiceProperties {
    configurations?: ServiceConfigurations;
    summary?: ServiceSummary;
    [k: string]: unknown;
}
export interface ServiceConfigurations {
    default_collection_size?: number;
    max_collection_size?: number;
    [k: string]: unknown;
}
export interface ServiceSummary {
    /**
     * Addresses of metadata resources.
     */
    metadata?: string[];
    [k: string]: unknown;
}
