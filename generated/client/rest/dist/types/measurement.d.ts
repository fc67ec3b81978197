import type { Lifetime, NetworkResource } from './networkresource.js';
/**
 * A measurement that a service takes (UNIS's measurement): its configuration and the event types it produces. BLiPP registers one per probe.
 */
export type Measurement = NetworkResource & {
    /**
     * The selfRef of the service that takes the measurement.
     */
    service?: string;
    /**
     * The probe's configuration; free-form.
     */
    configuration: {
        $schema?: string;
        [k: string]: unknown;
    };
    /**
     * The event types the measurement produces.
     */
    eventTypes: string[];
    /**
     * When the measurement runs.
     */
    scheduled_times?: Lifetime[];
    /**
     * Resources the measurement uses or affects.
     */
    resources?: MeasuredResource[];
    [k: string]: unknown;
};
export interface MeasuredResource {
    /**
     * Address of the resource.
     */
    ref: string;
    /**
     * How the resource is used, in percent.
     */
    usage?: {
        [k: string]: number;
    };
    [k: string]: unknown;
}
