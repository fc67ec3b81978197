import type { FieldType, Model } from '../model/model.js';
import { pascal } from '../model/rest.js';
import { camel, tsHeader, type GeneratedFile } from './output.js';
import { runtimeModule } from './runtime.js';
import { render } from './templates.js';

const SCALAR_TS: Partial<Record<FieldType, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  unknown: 'string | number | boolean',
};

/**
 * The REST client's exception classes, one per status of the contract table, each extending the
 * runtime's `TopocatError` (or `ServerError`, the 5xx family's), and the class of each status.
 */
function errorClasses(model: Model): string {
  const classes = model.errors.statuses.map((s) => `/** ${s.status}: ${s.meaning}. */\nexport class ${s.className} extends ${s.parent} {}`);
  return [
    tsHeader(['generator/model/http.ts']),
    "import { TopocatError } from './rest-error.js';",
    '',
    ...classes,
    '',
    '/** @internal The class of each status the service answers with the error body (the runtime\'s `errorFor`). */',
    'export const ERROR_CLASSES: Readonly<Record<number, typeof TopocatError>> = {',
    ...model.errors.statuses.map((s) => `  ${s.status}: ${s.className},`),
    '};',
    '',
  ].join('\n');
}

/**
 * The typed REST client SDK: a dependency-free runtime (transport, typed errors, query builder)
 * and one typed collection per kind, with a field map that types the query builder. The runtime
 * (generator/runtime/client-rest-*.ts) reads the contract table through generated/rest/contract.ts,
 * which the package carries too.
 */
export async function emitRestClient(model: Model): Promise<GeneratedFile[]> {
  const kinds = model.kinds.map((kind) => ({
    name: kind.name,
    collection: kind.collection,
    property: camel(pascal(kind.collection)),
    fields: kind.fields
      .filter((f) => SCALAR_TS[f.type] !== undefined)
      .map((f) => ({ path: f.path, tsType: SCALAR_TS[f.type]! })),
  }));
  return [
    { path: 'client/rest-error.ts', content: runtimeModule('client-rest-error', 'client') },
    { path: 'client/rest-errors.ts', content: errorClasses(model) },
    { path: 'client/rest-query.ts', content: runtimeModule('client-rest-query', 'client') },
    { path: 'client/rest-runtime.ts', content: runtimeModule('client-rest-runtime', 'client') },
    { path: 'client/rest.ts', content: render('client-rest.ts', { header: tsHeader(model.kinds.map((k) => k.file)), kinds }) },
  ];
}
