/** What the SOAP layer tells the catalog about one call. */
export interface CatalogCall {
  /** The caller's distinguished name from the `Username` header (trimmed); undefined when absent. */
  readonly dn: string | undefined;
  /** The caller may manage users other than itself (soap/access.ts decides). */
  readonly admin: boolean;
  /** The request id, for log lines about this call. */
  readonly requestId: string;
}
