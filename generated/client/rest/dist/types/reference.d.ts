// Compiled from generated/types/reference.ts by npm run generate; do not edit. source c67e038b9746477f67b119dc0bb1e8b4e97c88ddd31a96831fca556c93e00169 output b9e708247e0078e693a1d0da04eb2a2bcc4a5cc62082f320f00376f91553b807
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
