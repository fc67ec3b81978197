/**
 * A pointer to another resource.
 */
export interface Reference {
    /**
     * Address of the referenced resource.
     */
    href: string;
    /**
     * Only "full" is used.
     */
    rel?: "full";
    [k: string]: unknown;
}
/**
 * A pointer inside Link endpoints. The interface names the marker `ref` there; UNIS clients also write `rel`, so either is accepted and only `href` is required.
 */
export interface EndpointReference {
    /**
     * Address of the referenced resource.
     */
    href: string;
    /**
     * "full" is used.
     */
    ref?: string;
    /**
     * "full" is used (UNIS clients' spelling inside endpoints).
     */
    rel?: string;
    [k: string]: unknown;
}
export type References = Reference[];
