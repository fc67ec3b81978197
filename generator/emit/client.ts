import type { FieldType, Model } from '../model/model.js';
import { pascal } from '../model/rest.js';
import { errorTypes } from './contract.js';
import { camel, tsHeader, type GeneratedFile } from './output.js';
import { render } from './templates.js';

const SCALAR_TS: Partial<Record<FieldType, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  unknown: 'string | number | boolean',
};

/**
 * The typed REST client SDK: a dependency-free runtime (transport, typed errors, query builder)
 * and one typed collection per kind, with a field map that types the query builder.
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
    {
      path: 'client/rest-runtime.ts',
      content: render('client-rest-runtime.ts', {
        header: tsHeader(['generator/templates/client-rest-runtime.ts.hbs', 'generator/model/http.ts']),
        errorTypes: await errorTypes(model),
        errorClasses: model.errors.statuses,
        media: model.http.media,
      }),
    },
    { path: 'client/rest.ts', content: render('client-rest.ts', { header: tsHeader(model.kinds.map((k) => k.file)), kinds }) },
  ];
}
