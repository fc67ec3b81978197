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
 * A pointer inside Link endpoints; UNIS names the marker `ref` there instead of `rel`.
 */
export interface EndpointReference {
    /**
     * Address of the referenced resource.
     */
    href: string;
    /**
     * Only "full" is used.
     */
    ref?: "full";
    [k: string]: unknown;
}
export type References = Reference[];
