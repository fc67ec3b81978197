import { canonicalSchemaBase } from '../../generated/rest/kinds.js';
import { baseUrlOf, type Config } from '../config.js';
import { WRITING_BASES, type ServiceFacts } from '../storage/service-facts.js';

/** How often, at most, a miss re-reads the stored bases (another process may have added one). */
const REFRESH_INTERVAL_MS = 1_000;

/**
 * UNIS's schema addresses: clients written for UNIS send them (docs/rest-interface.md). Every published
 * version under both of UNIS's hosts, and the exnode directory (`exnode/<n>`) of Exnode and Extent.
 */
const UNIS_SCHEMA_BASE = /^https?:\/\/unis\.(incntre|crest)\.iu\.edu\/schema\/(20120709|20140214|20151104|20160630|exnode\/\d{1,3})$/;

/**
 * The base addresses this service calls its own: the current configuration's (answers carry
 * them), and every base any process of this database has written under, kept in the database,
 * so that a `$schema` or `selfRef` written under an earlier PUBLIC_URL or SCHEMA_BASE, or by a
 * process configured otherwise, is still this service's.
 */
export class OwnAddresses {
  private readonly schemaBases = new Set<string>([canonicalSchemaBase]);
  private readonly resourceBases = new Set<string>();
  private refreshedAt = 0;
  private refreshing: Promise<boolean> | undefined;

  constructor(
    private readonly facts: ServiceFacts,
    /** The base of every `selfRef` this process writes. */
    readonly baseUrl: string,
    /** The base of every `$schema` this process writes. */
    readonly schemaBase: string,
  ) {
    this.schemaBases.add(schemaBase);
    this.resourceBases.add(baseUrl);
  }

  /** The bases of a process configured by `config` that got `port`: PUBLIC_URL (or its address), and SCHEMA_BASE or `{base}/schema/<version>`. */
  static of(facts: ServiceFacts, config: Config, port: number): OwnAddresses {
    const baseUrl = baseUrlOf(config, port);
    return new OwnAddresses(facts, baseUrl, config.schemaBase ?? `${baseUrl}/schema/${canonicalSchemaBase.slice(canonicalSchemaBase.lastIndexOf('/') + 1)}`);
  }

  /**
   * Record this process's bases (once per database, kept for ever), and as the bases the service
   * writes under now (an export writes under them: server/unis/export-base.ts), and read everyone's.
   */
  async start(): Promise<void> {
    await this.facts.record([
      { role: 'resource', base: this.baseUrl },
      { role: 'schema', base: this.schemaBase },
    ]);
    const writing = await this.facts.writingBases();
    // A restart under the same bases writes nothing more.
    if (writing?.resource !== this.baseUrl || writing.schema !== this.schemaBase) {
      await this.facts.setFact(WRITING_BASES.resource, this.baseUrl);
      await this.facts.setFact(WRITING_BASES.schema, this.schemaBase);
    }
    await this.read();
  }

  /** A base of `$schema` addresses that names this service's kinds (ours, or UNIS's). */
  isSchemaBase(base: string): boolean {
    return this.schemaBases.has(base) || UNIS_SCHEMA_BASE.test(base);
  }

  /** One of UNIS's schema bases (a `$schema` under it is kept as sent: wire/representation.ts). */
  isUnisSchemaBase(base: string): boolean {
    return UNIS_SCHEMA_BASE.test(base);
  }

  /** A base of this service's resource addresses (`{base}/<collection>/<id>`). */
  isResourceBase(base: string): boolean {
    return this.resourceBases.has(base);
  }

  /**
   * After meeting an unknown base: read the stored bases again (at most once a second), in
   * case another process has written under a new one since. True when anything was added.
   */
  async refresh(): Promise<boolean> {
    if (this.refreshing) return this.refreshing;
    if (performance.now() - this.refreshedAt < REFRESH_INTERVAL_MS) return false;
    this.refreshing = this.read().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async read(): Promise<boolean> {
    const before = this.schemaBases.size + this.resourceBases.size;
    for (const { role, base } of await this.facts.addresses()) (role === 'schema' ? this.schemaBases : this.resourceBases).add(base);
    this.refreshedAt = performance.now();
    return this.schemaBases.size + this.resourceBases.size > before;
  }
}
