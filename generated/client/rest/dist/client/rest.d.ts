// Compiled from generated/client/rest.ts by npm run generate; do not edit. source 7bc88ba165609359eb74351220c0d9a6b799acd4b81d053c22e7c53a62e1017e output 3de277bb9962627576d0d0caab5f8036e9b1eb705675479aaa46a2f9f4a435ea
import type { Domain, Exnode, Extent, Link, Measurement, Metadata, Network, Node, Path, Port, Service, Topology } from '../types/index.js';
import { Collection, type ClientOptions, type SubscribeOptions } from './rest-runtime.js';
export * from './rest-runtime.js';
export type * from '../types/index.js';
/** One collection of the service as `GET /` lists it (UNIS's shape). */
export interface CollectionEntry {
    /** The collection's address. */
    readonly href: string;
    readonly rel: 'full';
    /** The kind's schema address is `targetschema.items.href`. */
    readonly targetschema: {
        readonly type: 'array';
        readonly items: {
            readonly rel: 'full';
            readonly href: string;
        };
    };
}
/** The name of a collection of the service. */
export type CollectionName = "domains" | "exnodes" | "extents" | "links" | "measurements" | "metadata" | "networks" | "nodes" | "paths" | "ports" | "services" | "topologies";
/** One change of any collection, as the service-wide event stream tells it (UNIS's frame). */
export interface ServiceChange {
    /** The event id: it orders every change of the service. */
    readonly event: string;
    readonly action: 'POST' | 'PUT' | 'DELETE';
    readonly collection: CollectionName;
    readonly id: string;
    /** The stored representation; `{id}` for a deletion. */
    readonly value: unknown;
}
/** Queryable fields of Domain and the type of their values. */
export interface DomainFields {
    "$schema": string;
    "description": string;
    "domains.href": string;
    "domains.rel": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "links.href": string;
    "links.rel": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "networks.href": string;
    "networks.rel": string;
    "nodes.href": string;
    "nodes.rel": string;
    "paths.href": string;
    "paths.rel": string;
    "ports.href": string;
    "ports.rel": string;
    "selfRef": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Exnode and the type of their values. */
export interface ExnodeFields {
    "$schema": string;
    "created": number;
    "description": string;
    "extents.$schema": string;
    "extents.href": string;
    "extents.id": string;
    "extents.index": number;
    "extents.location": string;
    "extents.offset": number;
    "extents.parent.href": string;
    "extents.parent.rel": string;
    "extents.rel": string;
    "extents.selfRef": string;
    "extents.size": number;
    "extents.ts": number;
    "id": string;
    "mode": string;
    "modified": number;
    "name": string;
    "parent.href": string;
    "parent.rel": string;
    "selfRef": string;
    "size": number;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Extent and the type of their values. */
export interface ExtentFields {
    "$schema": string;
    "id": string;
    "index": number;
    "location": string;
    "offset": number;
    "parent.href": string;
    "parent.rel": string;
    "selfRef": string;
    "size": number;
    "ts": number;
}
/** Queryable fields of Link and the type of their values. */
export interface LinkFields {
    "$schema": string;
    "capacity": number;
    "description": string;
    "directed": boolean;
    "endpoints": string | number | boolean;
    "endpoints.href": string;
    "endpoints.ref": string;
    "endpoints.rel": string;
    "endpoints.sink.href": string;
    "endpoints.sink.ref": string;
    "endpoints.sink.rel": string;
    "endpoints.source.href": string;
    "endpoints.source.ref": string;
    "endpoints.source.rel": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "selfRef": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Measurement and the type of their values. */
export interface MeasurementFields {
    "$schema": string;
    "configuration.$schema": string;
    "description": string;
    "eventTypes": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "resources.ref": string;
    "scheduled_times.end": string;
    "scheduled_times.start": string;
    "selfRef": string;
    "service": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Metadata and the type of their values. */
export interface MetadataFields {
    "$schema": string;
    "eventType": string;
    "id": string;
    "parameters.collectionInterval": number;
    "parameters.datumSchema": string;
    "selfRef": string;
    "subject.href": string;
    "subject.rel": string;
    "ts": number;
}
/** Queryable fields of Network and the type of their values. */
export interface NetworkFields {
    "$schema": string;
    "description": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "links.href": string;
    "links.rel": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "nodes.href": string;
    "nodes.rel": string;
    "ports.href": string;
    "ports.rel": string;
    "selfRef": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Node and the type of their values. */
export interface NodeFields {
    "$schema": string;
    "description": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "ports.href": string;
    "ports.rel": string;
    "selfRef": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Path and the type of their values. */
export interface PathFields {
    "$schema": string;
    "description": string;
    "directed": boolean;
    "hops.href": string;
    "hops.rel": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "selfRef": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Port and the type of their values. */
export interface PortFields {
    "$schema": string;
    "capacity": number;
    "description": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "selfRef": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/** Queryable fields of Service and the type of their values. */
export interface ServiceFields {
    "$schema": string;
    "accessPoint": string;
    "description": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "properties.configurations.default_collection_size": number;
    "properties.configurations.max_collection_size": number;
    "properties.summary.metadata": string;
    "runningOn.href": string;
    "runningOn.rel": string;
    "selfRef": string;
    "serviceType": string;
    "status": string;
    "ts": number;
    "ttl": number;
    "urn": string;
}
/** Queryable fields of Topology and the type of their values. */
export interface TopologyFields {
    "$schema": string;
    "description": string;
    "domains.href": string;
    "domains.rel": string;
    "id": string;
    "lifetimes.end": string;
    "lifetimes.start": string;
    "links.href": string;
    "links.rel": string;
    "location.cage": string;
    "location.city": string;
    "location.continent": string;
    "location.country": string;
    "location.floor": string;
    "location.institution": string;
    "location.latitude": number;
    "location.longitude": number;
    "location.rack": string;
    "location.room": string;
    "location.shelf": string;
    "location.state": string;
    "location.street_address": string;
    "location.zipcode": string;
    "name": string;
    "networks.href": string;
    "networks.rel": string;
    "nodes.href": string;
    "nodes.rel": string;
    "paths.href": string;
    "paths.rel": string;
    "ports.href": string;
    "ports.rel": string;
    "selfRef": string;
    "status": string;
    "ts": number;
    "urn": string;
}
/**
 * Typed client of the topology REST service.
 *
 *     const client = new TopologyClient({ baseUrl: 'http://127.0.0.1:8080' });
 *     const node = await client.nodes.create({ name: 'router-1' });
 */
export declare class TopologyClient {
    private readonly http;
    /** The `/domains` collection. */
    readonly domains: Collection<Domain, DomainFields>;
    /** The `/exnodes` collection. */
    readonly exnodes: Collection<Exnode, ExnodeFields>;
    /** The `/extents` collection. */
    readonly extents: Collection<Extent, ExtentFields>;
    /** The `/links` collection. */
    readonly links: Collection<Link, LinkFields>;
    /** The `/measurements` collection. */
    readonly measurements: Collection<Measurement, MeasurementFields>;
    /** The `/metadata` collection. */
    readonly metadata: Collection<Metadata, MetadataFields>;
    /** The `/networks` collection. */
    readonly networks: Collection<Network, NetworkFields>;
    /** The `/nodes` collection. */
    readonly nodes: Collection<Node, NodeFields>;
    /** The `/paths` collection. */
    readonly paths: Collection<Path, PathFields>;
    /** The `/ports` collection. */
    readonly ports: Collection<Port, PortFields>;
    /** The `/services` collection. */
    readonly services: Collection<Service, ServiceFields>;
    /** The `/topologies` collection. */
    readonly topologies: Collection<Topology, TopologyFields>;
    constructor(options: ClientOptions);
    /**
     * The consistency token this client sends with its requests: the newest a write answer carried
     * (a server with standbys, rest-contract §15). Hand it to another client
     * (`ClientOptions.consistencyToken`) for its reads to see this client's writes.
     */
    get consistencyToken(): string | undefined;
    /** The collections the service offers, in UNIS's shape: each `href` and its kind's schema address (`GET /`). */
    collections(): Promise<CollectionEntry[]>;
    /**
     * The changes of every collection, or of `collections`, in one event stream (`GET /` as
     * text/event-stream): one connection however many collections are followed. It reconnects and
     * resumes after the last event it gave, as `Collection.subscribe` does.
     */
    changes(collections?: readonly CollectionName[], options?: SubscribeOptions): AsyncGenerator<ServiceChange, void, undefined>;
}
