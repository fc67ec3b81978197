import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadProject, type ProjectInfo } from './load/project.js';
import { loadSchemas, type SchemaDocument } from './load/schemas.js';
import { loadWsdl, type LoadedWsdl } from './load/wsdl.js';
import type { Model } from './model/model.js';
import { buildRestModel } from './model/rest.js';
import { buildSoapModel } from './model/soap.js';
import { emitClientPackages, sdkPackages } from './emit/client-packages.js';
import { emitRestClient } from './emit/client.js';
import { emitOpenApi } from './emit/openapi/index.js';
import type { GeneratedFile } from './emit/output.js';
import { emitContract } from './emit/contract.js';
import { emitRest } from './emit/rest.js';
import { emitSoap, emitSoapClient } from './emit/soap.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';
import { compilePackages } from './package/compile.js';

export interface PipelineInput {
  /** Project root; the other paths are relative to it. */
  readonly root: string;
  readonly schemaDir: string;
  /** The WSDL of the SOAP service, if the project has one. */
  readonly wsdlFile?: string;
}

/** What the load phase read: the schema documents and, when the project has one, the WSDL. */
export interface Loaded {
  readonly project: ProjectInfo;
  readonly documents: readonly SchemaDocument[];
  readonly wsdl?: LoadedWsdl;
}

/** Load: read and check the sources; nothing is resolved yet. */
export async function load(input: PipelineInput): Promise<Loaded> {
  const project = await loadProject(input.root);
  const documents = await loadSchemas(input.root, input.schemaDir);
  if (input.wsdlFile === undefined || !existsSync(path.resolve(input.root, input.wsdlFile))) return { project, documents };
  return { project, documents, wsdl: await loadWsdl(input.root, input.wsdlFile) };
}

/** Model: the one intermediate model of both interfaces, every reference resolved once. */
export function model(loaded: Loaded): Model {
  const rest = { ...buildRestModel(loaded.documents), project: loaded.project };
  if (!loaded.wsdl) return rest;
  const { service, operations } = buildSoapModel(loaded.wsdl);
  return { ...rest, operations: [...rest.operations, ...operations], soap: service };
}

/** Load → model. */
export async function buildModel(input: PipelineInput): Promise<Model> {
  return model(await load(input));
}

/** Model → files: every emitter, in a fixed order. */
export async function emitAll(model: Model): Promise<GeneratedFile[]> {
  return [
    ...(await emitTypes(model)),
    ...emitValidators(model),
    ...emitRest(model),
    ...(await emitContract(model)),
    ...(await emitRestClient(model)),
    ...emitOpenApi(model),
    ...emitSoap(model),
    ...emitSoapClient(model),
    ...emitClientPackages(model),
  ];
}

/** Load → model → emit → package (the SDKs compiled from emitted sources), sorted by path for determinism. */
export async function generate(input: PipelineInput): Promise<GeneratedFile[]> {
  const built = await buildModel(input);
  const emitted = await emitAll(built);
  const previous = (file: string): string | undefined => {
    try {
      return readFileSync(path.join(input.root, 'generated', file), 'utf8');
    } catch {
      return undefined;
    }
  };
  const files = [...emitted, ...(await compilePackages(emitted, sdkPackages(built), previous))];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
