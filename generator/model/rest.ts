import { collectEmbeds } from './embeds.js';
import { collectFields } from './fields.js';
import type { Kind, Operation, RestModel, SchemaDocument } from './model.js';
import { ERROR_BODY, ERROR_STATUSES, HTTP_CONTRACT } from './http.js';
import { References } from './refs.js';

/**
 * Model phase for the REST side: every schema with `x-collection` becomes a kind with the six
 * operations of docs/rest-interface.md Documents without it only hold shared definitions.
 */
export function buildRestModel(documents: readonly SchemaDocument[]): RestModel {
  const refs = new References(documents);
  const first = documents[0]!;
  const schemaBase = first.id.slice(0, first.id.lastIndexOf('/'));

  const collections = documents.filter((d) => typeof d.json['x-collection'] === 'string');
  const slugs = new Set(collections.map((d) => d.slug));
  const kinds: Kind[] = collections
    .map((d) => ({
      ...d,
      name: d.typeName,
      collection: d.json['x-collection'] as string,
      closed: d.json.additionalProperties === false || d.json.unevaluatedProperties === false,
      fields: collectFields(d, refs),
      embeds: collectEmbeds(d, refs, slugs),
      dependencies: dependenciesOf(d, refs),
    }));

  return {
    schemaBase,
    schemaVersion: schemaBase.slice(schemaBase.lastIndexOf('/') + 1),
    documents,
    refs,
    kinds,
    operations: kinds.flatMap(restOperations),
    errors: { statuses: ERROR_STATUSES, body: ERROR_BODY },
    http: HTTP_CONTRACT,
  };
}

function restOperations(kind: Kind): Operation[] {
  const list = pascal(kind.collection);
  const item = `/${kind.collection}/{id}`;
  const op = (name: string, summary: string, action: NonNullable<Operation['rest']>['action'], method: NonNullable<Operation['rest']>['method'], path: string): Operation => ({
    name,
    summary,
    rest: { kind: kind.slug, action, method, path },
  });
  return [
    op(`create${kind.name}`, `Insert one ${kind.name} or an array of them (all or nothing)`, 'create', 'POST', `/${kind.collection}`),
    op(`list${list}`, `List or query the current ${kind.name} resources`, 'list', 'GET', `/${kind.collection}`),
    op(`get${kind.name}`, `Get a ${kind.name}: the newest representation, one version (?ts=) or matching versions (query)`, 'read', 'GET', item),
    op(`replace${kind.name}`, `Replace a ${kind.name} with a new representation`, 'replace', 'PUT', item),
    op(`patch${kind.name}`, `Apply a JSON Merge Patch to a ${kind.name}`, 'patch', 'PATCH', item),
    op(`delete${kind.name}`, `Delete a ${kind.name}; its older representations stay stored`, 'remove', 'DELETE', item),
  ];
}

/** Slugs of every document a document refers to, directly or through others. */
function dependenciesOf(document: SchemaDocument, refs: References): string[] {
  const seen = new Set<string>();
  const visit = (d: SchemaDocument): void => {
    for (const { target: { document: target } } of refs.of(d)) {
      if (target.slug !== document.slug && !seen.has(target.slug)) {
        seen.add(target.slug);
        visit(target);
      }
    }
  };
  visit(document);
  return [...seen].sort();
}

export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
