/**
 * What `npm run import` and `npm run export` share as commands: their options read the same way
 * (one-line errors with the usage, exit 2), paths taken from where npm was started, and the
 * registry they read or write built the same way a server builds it.
 */
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { Config } from '../config.js';
import { storedKinds } from '../kinds/stored-kinds.js';
import type { Database } from '../storage/contract/database.js';
import { MeasurementStore } from '../storage/measurements/store.js';
import { ResourceStore } from '../storage/resource-store.js';
import { ServiceFacts } from '../storage/service-facts.js';
import { OwnAddresses } from '../wire/addresses.js';
import { Representations } from '../wire/representation.js';

/** The options of `args`, or the exit code when they are wrong (2, usage on stderr) or ask for help (0, usage on stdout). */
export function commandOptions<T>(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>, usage: string): { readonly values: T } | { readonly code: number } {
  let values: T & { help?: boolean };
  try {
    values = parseArgs({ args: [...args], options: { ...options, help: { type: 'boolean', short: 'h' } } }).values as T & { help?: boolean };
  } catch (error) {
    console.error(`error: ${(error as Error).message.split('\n')[0]!}\n\n${usage}`);
    return { code: 2 };
  }
  if (values.help) {
    console.log(usage);
    return { code: 0 };
  }
  return { values };
}

/** A path as the operator gave it: `npm run` runs in the project's folder, so a relative one is meant from where npm was started. */
export function startedFrom(given: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
}

/** The registry of `database` as a server of `config` sees it: its stores and its representations. */
export function registryOf(database: Database, config: Config): {
  readonly resources: ResourceStore;
  readonly measurements: MeasurementStore;
  readonly representations: Representations;
  readonly addresses: OwnAddresses;
  readonly kinds: readonly KindDescriptor[];
} {
  const addresses = OwnAddresses.of(new ServiceFacts(database), config, config.port);
  const resources = new ResourceStore(database);
  return { resources, measurements: new MeasurementStore(database, resources), representations: new Representations(storedKinds, addresses), addresses, kinds: storedKinds };
}
