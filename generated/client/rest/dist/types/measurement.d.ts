// Compiled from generated/types/measurement.ts by npm run generate; do not edit. source d604fe629279afbdeb7fae487b674f864c69a160850efe3c37bdb31ba0660f52 output dd060bef157d6f3fcf47dccc6d0f51bfc0f16db5f610aa3eb7243091f2d3a594
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
