import { compile } from 'json-schema-to-typescript';
import type { QueryGrammar } from '../model/http.js';
import type { Model } from '../model/model.js';
import { JSTT_OPTIONS } from './types.js';
import { tsHeader, type GeneratedFile } from './output.js';

const SOURCE = 'generator/model/http.ts';

/** `ErrorBody` and `ErrorDetail` as TypeScript, compiled from the error table's schema. */
export async function errorTypes(model: Model): Promise<string> {
  return (await compile(structuredClone(model.errors.body) as never, 'ErrorBody', JSTT_OPTIONS)).trim();
}

/** The query language's grammar: the tables the server's parser and the REST client read. */
function queryGrammar({ operators, valueTypes, reserved }: QueryGrammar): string[] {
  const operatorLines = operators.map((o) => `  ${o.operator}: { prefix: ${JSON.stringify(o.prefix)}, takes: ${JSON.stringify(o.takes)}, orders: ${o.orders} }, // ${o.meaning}`);
  return [
    '/**',
    ' * The operators of the query language (rest-contract §5), written `field=<prefix>=value`, by',
    ' * their name in the syntax tree: what follows the prefix (one value, a text taken whole, or',
    ' * nothing), and whether the operator orders. Plain equality (`field=value`) has no prefix.',
    ' */',
    `export const QUERY_OPERATORS = {\n${operatorLines.join('\n')}\n} as const;`,
    '',
    'export type QueryOperator = keyof typeof QUERY_OPERATORS;',
    '',
    '/** The types a value may be given, `<type>:<value>` (the prefix in any letter case). */',
    `export const VALUE_TYPES = [${valueTypes.map((t) => JSON.stringify(t.type)).join(', ')}] as const;`,
    '',
    'export type ValueType = (typeof VALUE_TYPES)[number];',
    '',
    '/** Query parameters that are never conditions (besides `ts` of a single resource). */',
    `export const RESERVED_PARAMETERS = [\n${reserved.map((r) => `  ${JSON.stringify(r.name)}, // ${r.meaning}`).join('\n')}\n] as const;`,
    '',
    'export type ReservedParameter = (typeof RESERVED_PARAMETERS)[number];',
    '',
  ];
}

/**
 * The server's side of the HTTP contract table (generated/rest/contract.ts): the error body's
 * types and the statuses it may answer with, the media types, the paths the server answers
 * itself, the collections it owns, the status of each REST action and the query language's
 * grammar (which the REST client reads too).
 */
export async function emitContract(model: Model): Promise<GeneratedFile[]> {
  const { media, resourceMedia, serverPaths, serverCollections, actions, query, consistencyToken } = model.http;
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
    '/** The header of the consistency token (rest-contract §15): write answers carry it, reads send it back. */',
    `export const CONSISTENCY_TOKEN_HEADER = ${JSON.stringify(consistencyToken.header)};`,
    '',
    ...queryGrammar(query),
  ].join('\n');
  return [{ path: 'rest/contract.ts', content }];
}
