import { compile } from 'json-schema-to-typescript';
import type { Model } from '../model/model.js';
import { JSTT_OPTIONS } from './types.js';
import { tsHeader, type GeneratedFile } from './output.js';

const SOURCE = 'generator/model/http.ts';

/** `ErrorBody` and `ErrorDetail` as TypeScript, compiled from the error table's schema. */
export async function errorTypes(model: Model): Promise<string> {
  return (await compile(structuredClone(model.errors.body) as never, 'ErrorBody', JSTT_OPTIONS)).trim();
}

/**
 * The server's side of the HTTP contract table (generated/rest/contract.ts): the error body's
 * types and the statuses it may answer with, the media types, the paths the server answers
 * itself, the collections it owns and the status of each REST action.
 */
export async function emitContract(model: Model): Promise<GeneratedFile[]> {
  const { media, resourceMedia, serverPaths, serverCollections, actions } = model.http;
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
    '/** The media types of the interface. */',
    `export const MEDIA_TYPES = {\n${Object.entries(media).map(([name, type]) => `  ${name}: ${JSON.stringify(type)},`).join('\n')}\n} as const;`,
    '',
    '/** The types a resource is written and answered in; UNIS clients use perfsonar+json. */',
    `export const RESOURCE_MEDIA_TYPES = [${resourceMedia.map((m) => JSON.stringify(m)).join(', ')}] as const;`,
    '',
    '/** The top-level paths the server answers itself; no collection may be named as one. */',
    `export const SERVER_PATHS = [\n${serverPaths.map((p) => `  ${JSON.stringify(p.segment)}, // ${p.meaning}`).join('\n')}\n] as const;`,
    '',
    '/** The collections the server owns (no schema makes them): server/collections.ts binds each to its routes, in this order. */',
    `export const SERVER_COLLECTIONS = [\n${serverCollections.map((c) => `  ${JSON.stringify(c.segment)}, // ${c.meaning}`).join('\n')}\n] as const;`,
    '',
    'export type ServerCollection = (typeof SERVER_COLLECTIONS)[number];',
    '',
    '/** The status each REST action answers with when it succeeds. */',
    `export const ACTION_STATUS = {\n${Object.entries(actions).map(([action, a]) => `  ${action}: ${a.success},`).join('\n')}\n} as const;`,
    '',
  ].join('\n');
  return [{ path: 'rest/contract.ts', content }];
}
