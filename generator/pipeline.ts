import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadSchemas } from './load/schemas.js';
import { loadWsdl } from './load/wsdl.js';
import type { Model } from './model/model.js';
import { buildRestModel } from './model/rest.js';
import { emitRestClient } from './emit/client.js';
import { emitOpenApi } from './emit/openapi.js';
import type { GeneratedFile } from './emit/output.js';
import { emitRest } from './emit/rest.js';
import { emitSoap, emitSoapClient } from './emit/soap.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';

export interface PipelineInput {
  /** Project root; the other paths are relative to it. */
  readonly root: string;
  readonly schemaDir: string;
  /** The WSDL of the SOAP service, if the project has one. */
  readonly wsdlFile?: string;
}

/** Load → model: the one intermediate model of both interfaces. */
export async function buildModel(input: PipelineInput): Promise<Model> {
  const documents = await loadSchemas(input.root, input.schemaDir);
  const rest = buildRestModel(documents);
  if (input.wsdlFile === undefined || !existsSync(path.resolve(input.root, input.wsdlFile))) return rest;
  const { service, operations } = await loadWsdl(input.root, input.wsdlFile);
  return { ...rest, operations: [...rest.operations, ...operations], soap: service };
}

/** Model → files: every emitter, in a fixed order, sorted by path for determinism. */
export async function emitAll(model: Model): Promise<GeneratedFile[]> {
  const files = [
    ...(await emitTypes(model)),
    ...emitValidators(model),
    ...emitRest(model),
    ...emitRestClient(model),
    ...emitOpenApi(model),
    ...emitSoap(model),
    ...emitSoapClient(model),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export async function generate(input: PipelineInput): Promise<GeneratedFile[]> {
  return emitAll(await buildModel(input));
}
