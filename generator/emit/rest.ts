import type { Kind, Model } from '../model/model.js';
import { draft04Document } from './draft04.js';
import { camel, jsonText, tsHeader, type GeneratedFile } from './output.js';
import { runtimeModule } from './runtime.js';
import { render } from './templates.js';

/** Variable name of a kind's descriptor, e.g. `nodeKind`. */
export function kindVariable(kind: Kind): string {
  return `${camel(kind.name)}Kind`;
}

/**
 * The server side of the REST interface: the handler interface the server implements, one
 * descriptor per kind, one route module per collection, and the schema documents to serve.
 */
export function emitRest(model: Model): GeneratedFile[] {
  const allSources = model.documents.map((d) => d.file);
  const kinds = model.kinds.map((k) => ({
    name: k.name,
    slug: k.slug,
    file: k.file,
    id: k.id,
    collection: k.collection,
    closed: k.closed,
    variable: kindVariable(k),
    indexes: k.fields.filter((f) => f.indexed).map((f) => f.path),
    embeds: Object.fromEntries(k.embeds.map((e) => [e.property, e.kind])),
    fields: k.fields,
  }));

  const files: GeneratedFile[] = [
    { path: 'rest/handler.ts', content: runtimeModule('rest-handler', 'rest') },
    { path: 'rest/kinds.ts', content: render('rest-kinds.ts', { header: tsHeader(allSources), schemaBase: model.schemaBase, kinds }) },
    { path: 'rest/routes/index.ts', content: render('rest-routes-index.ts', { header: tsHeader(model.kinds.map((k) => k.file)), kinds }) },
    { path: 'rest/schemas.ts', content: schemasModule(model) },
  ];
  for (const kind of model.kinds) {
    const operations = model.operations
      .filter((op) => op.rest?.kind === kind.slug)
      .map((op) => ({
        name: op.name,
        summary: op.summary,
        method: op.rest!.method.toLowerCase(),
        path: op.rest!.path.replace(/\{(\w+)\}/g, ':$1'),
        action: op.rest!.action,
      }));
    files.push({
      path: `rest/routes/${kind.collection}.ts`,
      content: render('rest-routes.ts', { header: tsHeader([kind.file]), name: kind.name, variable: kindVariable(kind), operations }),
    });
  }
  return files;
}

/** Every schema document, so the server can serve `{schema_base}/<slug>` without reading files. */
function schemasModule(model: Model): string {
  const documents = Object.fromEntries(model.documents.map((d) => [d.slug, draft04Document(d)]));
  return [
    tsHeader(model.documents.map((d) => d.file)),
    '/**',
    ' * Schema documents by slug as the server serves them: schemas/ translated so that draft-04',
    ' * clients (UNIS\'s) can read them too, addressed under the canonical schema base.',
    ' */',
    `export const schemaDocuments: Readonly<Record<string, Readonly<Record<string, unknown>>>> = ${jsonText(documents).trimEnd()};`,
    '',
  ].join('\n');
}
