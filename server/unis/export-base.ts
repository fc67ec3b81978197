import { canonicalSchemaBase } from '../../generated/rest/kinds.js';
import { baseUrlOf, type Config } from '../config.js';
import type { ServiceFacts } from '../storage/service-facts.js';

/** The bases an export writes under, and the service's other bases whose `href`s it moves onto them. */
export interface ExportBases {
  /** The base of every `selfRef` written, and of every `href` into this service. */
  readonly resource: string;
  /** The base of the `$schema` addresses of this service's kinds. */
  readonly schema: string;
  /** Bases this service wrote under before (an earlier PUBLIC_URL, another process's): `href`s under them are written under `resource`. */
  readonly movedFrom: readonly string[];
  /** How `resource` was chosen, for the report. */
  readonly chosen: string;
}

/**
 * The base an export writes `selfRef`s under (rest-contract §14, revised 2026-11-29): the one its
 * database's `href`s were written with, as the service recorded it (ServiceFacts.writingBases:
 * each server and each import records its PUBLIC_URL when it starts), not whatever PUBLIC_URL the
 * export's shell has. `href`s are stored as written and `selfRef` is derived on the way out, so a
 * `selfRef` from another base than the `href`s' makes a mixed export, which an import then
 * rebases only half of. A different PUBLIC_URL in the export's environment is an error; `--base`
 * (`given`) rebases explicitly: `selfRef`s and every `href` under one of the service's own bases
 * are written under it. Either way, `href`s under the service's earlier bases move onto the one
 * written, so an export never holds two of this service's bases.
 *
 * A database of an older release records no writing base: the one base its processes wrote
 * under (`topocat_addresses`) is taken; when they were several, `--base` must say which.
 */
export async function exportBases(facts: ServiceFacts, config: Config, given: string | undefined): Promise<ExportBases> {
  const own = (await facts.addresses()).filter((a) => a.role === 'resource').map((a) => a.base);
  const recorded = await facts.writingBases();
  const moved = (resource: string): string[] => own.filter((base) => base !== resource).sort();
  const schemaUnder = (resource: string): string => config.schemaBase ?? `${resource}/schema/${canonicalSchemaBase.slice(canonicalSchemaBase.lastIndexOf('/') + 1)}`;
  if (given !== undefined) {
    return { resource: given, schema: schemaUnder(given), movedFrom: moved(given), chosen: `--base ${given}` };
  }
  const written = recorded?.resource ?? (own.length === 1 ? own[0] : undefined);
  if (written === undefined) {
    if (own.length === 0) {
      // Nothing was ever written under any base (no server, no import ran on it): nothing to contradict.
      const resource = baseUrlOf(config, config.port);
      return { resource, schema: schemaUnder(resource), movedFrom: [], chosen: config.publicUrl ? 'PUBLIC_URL (no base is recorded in the database)' : 'the default address (no base is recorded in the database)' };
    }
    throw new Error(`the database does not record which base its hrefs were written with (it was last written by an older release), and it was written under several: ${own.sort().join(', ')}; name the base of the export with --base <url>`);
  }
  if (config.publicUrl !== undefined && config.publicUrl !== written) {
    throw new Error(
      `PUBLIC_URL is ${config.publicUrl}, but the hrefs of this database were written under ${written} (recorded by the service): an export under PUBLIC_URL would mix the two. Export under ${written} without PUBLIC_URL (or with that value), or move every selfRef and href onto the other base with --base ${config.publicUrl}`,
    );
  }
  return {
    resource: written,
    // SCHEMA_BASE in the export's environment names the addresses wanted (UNIS's, for one); without it, the recorded ones.
    schema: config.schemaBase ?? (recorded?.resource === written ? recorded.schema : schemaUnder(written)),
    movedFrom: moved(written),
    chosen: recorded ? 'recorded in the database' : 'the only base recorded in the database',
  };
}
