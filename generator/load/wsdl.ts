import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { open_wsdl } from 'soap/lib/wsdl/index.js';
import { GeneratorError } from '../errors.js';

/** The parts of node-soap's parsed element tree that the model phase reads. */
export interface SoapNode {
  readonly name: string;
  readonly children: readonly SoapNode[];
  readonly [attribute: `$${string}`]: string | undefined;
}

export interface SoapSchema {
  readonly xmlns: Readonly<Record<string, string>>;
  readonly $targetNamespace: string;
  readonly complexTypes: Readonly<Record<string, SoapNode>>;
  readonly types: Readonly<Record<string, SoapNode>>;
  readonly elements: Readonly<Record<string, SoapNode>>;
}

export interface SoapDefinitions {
  readonly $targetNamespace: string;
  readonly schemas: Readonly<Record<string, SoapSchema>>;
  readonly services: Readonly<Record<string, { ports: Record<string, { location: string; binding: SoapBinding }> }>>;
  readonly bindings: Readonly<Record<string, SoapBinding>>;
  readonly portTypes: Readonly<Record<string, unknown>>;
}

export interface SoapBinding {
  readonly style?: string;
  readonly methods: Record<string, { $name: string; soapAction?: string; style?: string; input?: { $name: string }; output?: { $name: string } }>;
}

/** The WSDL as read: node-soap's definitions, and which file declares the message types. */
export interface LoadedWsdl {
  readonly wsdlFile: string;
  readonly definitions: SoapDefinitions;
  /** The types namespace: the schema that declares the most elements (the messages'; the other declares the identity header). */
  readonly typesNamespace: string;
  /** The .xsd that declares it, relative to the project root (the WSDL when none does). */
  readonly typesFile: string;
}

/**
 * Load phase for the SOAP side: the WSDL and the schema it imports, parsed by the `soap`
 * package's WSDL parser. The model phase (model/soap.ts) turns them into the XML part of the
 * intermediate model.
 */
export async function loadWsdl(projectRoot: string, wsdlFile: string): Promise<LoadedWsdl> {
  const absolute = path.resolve(projectRoot, wsdlFile);
  const definitions = await new Promise<SoapDefinitions>((resolve, reject) => {
    open_wsdl(absolute, {}, (error: unknown, wsdl?: unknown) => {
      if (error || !wsdl) reject(new GeneratorError(wsdlFile, '', `the WSDL could not be parsed: ${(error as Error)?.message ?? 'no result'}`));
      else resolve((wsdl as { definitions: SoapDefinitions }).definitions);
    });
  });
  const elementCount = (ns: string): number => Object.keys(definitions.schemas[ns]!.elements).length;
  const typesNamespace = Object.keys(definitions.schemas)
    .filter((ns) => elementCount(ns) > 0)
    .sort((a, b) => elementCount(b) - elementCount(a))[0];
  if (!typesNamespace) throw new GeneratorError(wsdlFile, 'types', 'no schema with element declarations');
  const typesFile = schemaFileOf(projectRoot, path.dirname(absolute), typesNamespace) ?? wsdlFile;
  return { wsdlFile, definitions, typesNamespace, typesFile };
}

/** The .xsd beside the WSDL that declares `namespace`, for headers and error messages. */
function schemaFileOf(projectRoot: string, dir: string, namespace: string): string | undefined {
  const name = readdirSync(dir)
    .filter((f) => f.endsWith('.xsd'))
    .sort()
    .find((f) => readFileSync(path.join(dir, f), 'utf8').includes(`targetNamespace="${namespace}"`));
  return name === undefined ? undefined : path.relative(projectRoot, path.join(dir, name)).split(path.sep).join('/');
}
