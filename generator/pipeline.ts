import { loadSchemas } from './load/schemas.js';
import type { Model } from './model/model.js';
import { buildRestModel } from './model/rest.js';
import { emitRestClient } from './emit/client.js';
import { emitOpenApi } from './emit/openapi.js';
import type { GeneratedFile } from './emit/output.js';
import { emitRest } from './emit/rest.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';

export interface PipelineInput {
  /** Project root; the other paths are relative to it. */
  readonly root: string;
  readonly schemaDir: string;
}

/** Load → model: the one intermediate model of both interfaces. */
export async function buildModel(input: PipelineInput): Promise<Model> {
  const documents = await loadSchemas(input.root, input.schemaDir);
  return buildRestModel(documents);
}

/** Model → files: every emitter, in a fixed order, sorted by path for determinism. */
export async function emitAll(model: Model): Promise<GeneratedFile[]> {
  const files = [
    ...(await emitTypes(model)),
    ...emitValidators(model),
    ...emitRest(model),
    ...emitRestClient(model),
    ...emitOpenApi(model),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export async function generate(input: PipelineInput): Promise<GeneratedFile[]> {
  return emitAll(await buildModel(input));
}
