import type { JsonSchema, SchemaDocument } from '../model/model.js';

export const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

/** Keywords that only the generator reads; a served document does not carry them. */
const GENERATOR_ONLY = new Set(['tsType']);

/**
 * A schema document as the server serves it: readable by UNIS's draft-04 clients, which fetch
 * every `$schema` they meet (UNISrt builds its classes from `id`, `name` and `allOf[].$ref`;
 * dlt-web follows `allOf[0].$ref`). The 2020-12 file in schemas/ stays the source; this is a
 * translation of it:
 *
 * - `id` (draft-04's `$id`) and `name` beside `$id`: the name UNIS published for the kind
 *   (`x-unis-name`, where it is not the title: UNISrt matches a collection's resources to its
 *   model by this name, so it must be the one of the schemas UNISrt reads from UNIS);
 * - every `$ref` absolute, so a client can fetch it as it stands, and `$defs` as `definitions`;
 * - 2020-12 keywords with a draft-04 spelling rewritten: `const`, numeric `exclusiveMinimum`
 *   and `exclusiveMaximum`, `prefixItems`, `dependentRequired`/`dependentSchemas`;
 * - a list of types as `anyOf` of one type each (the same meaning): UNISrt looks each
 *   property's `type` up as a single name and fails on a list.
 *
 * Addresses use the canonical schema base; the server replaces it with its configured one.
 */
export function draft04Document(document: SchemaDocument): JsonSchema {
  const address = `${document.id}#`;
  const body = translate(document.json, document.id) as JsonSchema;
  const { $schema: _dialect, $id: _id, title, 'x-unis-name': unisName, ...rest } = body;
  const name = typeof unisName === 'string' ? unisName : document.typeName;
  return { $schema: DRAFT_04, id: address, $id: document.id, name, ...(title !== undefined ? { title } : {}), ...rest };
}

function translate(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((item) => translate(item, base));
  if (value === null || typeof value !== 'object') return value;
  const schema = value as JsonSchema;
  const out: JsonSchema = {};
  const extraAllOf: unknown[] = [];
  for (const [key, member] of Object.entries(schema)) {
    if (GENERATOR_ONLY.has(key)) continue;
    switch (key) {
      case '$ref':
        out.$ref = absoluteRef(member as string, base);
        break;
      case '$defs':
        out.definitions = translateMembers(member, base);
        break;
      case 'properties':
      case 'patternProperties':
        // Names of members, not keywords: only their schemas are translated.
        out[key] = translateMembers(member, base);
        break;
      case 'const':
        out.enum = [member];
        break;
      case 'type':
        if (Array.isArray(member)) {
          const alternatives = { anyOf: member.map((type) => ({ type })) };
          if (schema.anyOf === undefined) Object.assign(out, alternatives);
          else extraAllOf.push(alternatives);
        } else {
          out.type = member;
        }
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof member === 'number') {
          out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = member;
          out[key] = true;
        } else {
          out[key] = member;
        }
        break;
      case 'prefixItems':
        out.items = translate(member, base);
        if (schema.items !== undefined) out.additionalItems = translate(schema.items, base);
        break;
      case 'items':
        if (schema.prefixItems === undefined) out.items = translate(member, base);
        break;
      case 'dependentRequired':
      case 'dependentSchemas':
        out.dependencies = { ...(out.dependencies as JsonSchema | undefined), ...(translateMembers(member, base) as JsonSchema) };
        break;
      default:
        out[key] = translate(member, base);
    }
  }
  if (extraAllOf.length > 0) out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), ...extraAllOf];
  return out;
}

function translateMembers(members: unknown, base: string): JsonSchema {
  return Object.fromEntries(Object.entries(members as JsonSchema).map(([name, sub]) => [name, translate(sub, base)]));
}

/** `networkresource` or `reference#/$defs/x` → the absolute address, fragments in draft-04 terms. */
function absoluteRef(ref: string, base: string): string {
  const target = new URL(ref, base);
  const fragment = target.hash.replace(/^#\/\$defs\//, '#/definitions/');
  target.hash = '';
  // A reference inside the same document stays local, as draft-04 writers wrote them.
  if (ref.startsWith('#')) return fragment === '' ? '#' : fragment;
  return `${target.href}${fragment === '' ? '#' : fragment}`;
}
