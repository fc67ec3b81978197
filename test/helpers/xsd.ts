import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { projectRoot } from './server.js';

let schema: Promise<string> | undefined;

/**
 * Validate an XML document (one message element, not an envelope) against
 * wsdl/catalog-types.xsd with libxml2 (xmllint compiled to WebAssembly). Returns libxml2's
 * error messages; empty when valid.
 */
export async function xsdErrors(xml: string): Promise<string[]> {
  schema ??= readFile(path.join(projectRoot, 'wsdl/catalog-types.xsd'), 'utf8');
  const result = await validateXML({
    xml: [{ fileName: 'message.xml', contents: xml }],
    schema: [{ fileName: 'catalog-types.xsd', contents: await schema }],
  });
  return result.valid ? [] : result.errors.map((e) => e.message);
}
