import { compile } from 'json-schema-to-typescript';
import type { Model } from '../model/model.js';
import { JSTT_OPTIONS } from './types.js';
import { tsHeader, type GeneratedFile } from './output.js';

const SOURCE = 'generator/model/http.ts';

/** `ErrorBody` and `ErrorDetail` as TypeScript, compiled from the error table's schema. */
export async function errorTypes(model: Model): Promise<string> {
  return (await compile(structuredClone(model.errors.body) as never, 'ErrorBody', JSTT_OPTIONS)).trim();
}

/** The server's side of the error table: the body's types and the statuses it may answer with. */
export async function emitErrors(model: Model): Promise<GeneratedFile[]> {
  const statuses = model.errors.statuses.map((s) => `  ${s.status}, // ${s.meaning}`).join('\n');
  const content = [
    tsHeader([SOURCE]),
    await errorTypes(model),
    '',
    '/** Every status the service answers with the error body. */',
    `export const ERROR_STATUSES = [\n${statuses}\n] as const;`,
    '',
    'export type ErrorStatus = (typeof ERROR_STATUSES)[number];',
    '',
  ].join('\n');
  return [{ path: 'rest/errors.ts', content }];
}
