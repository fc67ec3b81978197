import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths.js';

/** The WSDL and the XSD it imports, as served at `{service}?wsdl` and `{service}?xsd=<name>`. */
export interface ServiceDescription {
  readonly wsdl: string;
  readonly schemas: ReadonlyMap<string, string>;
}

/**
 * Read wsdl/ and point the documents at this server: `soap:address` becomes the configured
 * service URL and each `schemaLocation` a `?xsd=` address of the same endpoint, so a toolkit
 * given only `{service}?wsdl` finds everything. Built from configuration, never from `Host`.
 */
export function loadServiceDescription(serviceUrl: string): ServiceDescription {
  const dir = path.join(projectRoot, 'wsdl');
  const xsdUrl = (name: string): string => `${serviceUrl}?xsd=${encodeURIComponent(name)}`;
  const relocate = (text: string): string => text.replace(/schemaLocation="([^"]+)"/g, (_, name: string) => `schemaLocation="${xsdUrl(name)}"`);
  const wsdl = relocate(readFileSync(path.join(dir, 'catalog.wsdl'), 'utf8')).replace(
    /(<soap:address\s+location=")[^"]*(")/,
    (_, before: string, after: string) => `${before}${serviceUrl}${after}`,
  );
  const schemas = new Map<string, string>();
  for (const match of wsdl.matchAll(/schemaLocation="[^"]*\?xsd=([^"]+)"/g)) {
    const name = decodeURIComponent(match[1]!);
    schemas.set(name, relocate(readFileSync(path.join(dir, path.basename(name)), 'utf8')));
  }
  return { wsdl, schemas };
}
