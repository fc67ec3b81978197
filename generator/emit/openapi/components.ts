import { pointerJoin } from '../../errors.js';
import type { Field, Kind, Model, SchemaDocument } from '../../model/model.js';
import type { References } from '../../model/refs.js';

export type Json = Record<string, unknown>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** The schema components: every schema document, the error body, and each kind's patch and projection. */
export function schemaComponents(model: Model): Json {
  const schemas: Json = {};
  for (const document of model.documents) {
    const { $defs, ...root } = documentSchema(document, model.refs);
    // A document of shared definitions only has no root type: its definitions stand alone.
    if ('type' in root || 'properties' in root || 'allOf' in root) schemas[document.typeName] = root;
    for (const [name, schema] of Object.entries(($defs ?? {}) as Record<string, Json>)) schemas[definitionName(document, name)] = schema;
  }
  const { $defs, ...body } = model.errors.body as { $defs: Record<string, Json> } & Json;
  schemas[String(body.title)] = rewriteLocalRefs(body);
  for (const [name, schema] of Object.entries($defs)) schemas[name] = rewriteLocalRefs(schema);
  schemas.Expanded = {
    description: 'What `expand` puts in place of a reference (an object) or of a list of references (a list of objects): the referenced resources.',
    anyOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }],
  };
  for (const kind of model.kinds) {
    if (kind.embeds.length > 0) schemas[`${kind.typeName}Insert`] = insertSchema(kind, model, schemas);
    schemas[`${kind.typeName}Patch`] = patchSchema(kind, schemas);
    schemas[`${kind.typeName}Projection`] = projectionSchema(kind, schemas);
  }
  return mapValues(schemas, forTools);
}

/**
 * What the schema files leave implicit, said for the tools that read the description
 * (openapi-typescript, Spectral, Prism), with the same meaning: an object that does not close
 * itself takes other members (`additionalProperties: true`, JSON Schema's default: kinds are
 * open, and `properties`, `location`, `configuration` free-form; without it generators write
 * `Record<string, never>` or refuse extra members); an integer
 * is an `int64` (µs timestamps, capacities and sizes pass 2^31); a member whose TypeScript type
 * the schema names (`tsType`, as json-schema-to-typescript reads it) is that union of components.
 */
function forTools(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forTools);
  if (value === null || typeof value !== 'object') return value;
  const schema = value as Json;
  const copy: Json = {};
  for (const [key, child] of Object.entries(schema)) {
    if (key === 'tsType') continue;
    copy[key] = key === 'properties' || key === '$defs' ? mapValues(child as Json, forTools) : forTools(child);
  }
  const union = typeof schema.tsType === 'string' ? schema.tsType.split('|').map((name) => name.trim()) : undefined;
  if (union && union.every((name) => /^[A-Z]\w*$/.test(name))) {
    delete copy.type;
    copy.anyOf = union.map(ref);
  }
  const closes = ['additionalProperties', 'unevaluatedProperties', 'patternProperties', '$ref'].some((k) => k in copy);
  if ((copy.type === 'object' || 'properties' in copy) && !closes) copy.additionalProperties = true;
  if (copy.type === 'integer' && copy.format === undefined) copy.format = 'int64';
  return copy;
}

const mapValues = (object: Json, f: (v: unknown) => unknown): Json => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));

/** The schema of a kind's top-level member where its component (or a base it extends) declares it. */
function memberSchema(schemas: Json, component: string, member: string): Json | undefined {
  const schema = schemas[component] as Json | undefined;
  if (!schema) return undefined;
  if ((schema.properties as Json | undefined)?.[member] !== undefined) return { $ref: `#/components/schemas/${component}/properties/${member}` };
  for (const part of (schema.allOf ?? []) as Json[]) {
    const base = typeof part.$ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(part.$ref)?.[1] : undefined;
    const found = base ? memberSchema(schemas, base, member) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A document as a component: no `$id`, every `$ref` pointing into `components.schemas`. */
function documentSchema(document: SchemaDocument, refs: References): Json {
  const rewrite = (value: unknown, at: string): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => rewrite(item, pointerJoin(at, i)));
    if (value === null || typeof value !== 'object') return value;
    const copy: Json = {};
    for (const [key, child] of Object.entries(value)) {
      // The document's own identity goes (a component has none); a property named `$schema` stays.
      // `tsType` stays for forTools, which reads and drops it.
      if (at === '' && (key === '$id' || key === '$schema')) continue;
      if (key === '$ref' && typeof child === 'string') {
        const target = refs.at(document, at);
        const definition = /^\/\$defs\/([^/]+)(.*)$/.exec(target.pointer);
        copy.$ref = definition
          ? `#/components/schemas/${definitionName(target.document, definition[1]!.replace(/~1/g, '/').replace(/~0/g, '~'))}${definition[2]}`
          : `#/components/schemas/${target.document.typeName}${target.pointer}`;
      } else {
        copy[key] = rewrite(child, pointerJoin(at, key));
      }
    }
    return copy;
  };
  return rewrite(document.json, '') as Json;
}

/** A `$defs` entry as a component of its own: named by its title (as its TypeScript type is), else `<Document>_<name>`. */
function definitionName(document: SchemaDocument, name: string): string {
  const title = ((document.json.$defs as Record<string, Json> | undefined)?.[name] as Json | undefined)?.title;
  return typeof title === 'string' ? title.replace(/ /g, '') : `${document.typeName}_${name}`;
}

/** `#/$defs/X` inside the error table's schema becomes `#/components/schemas/X`. */
function rewriteLocalRefs(value: unknown): Json {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}

/** The members of a kind's top level, with the JSON type of each (arrays as arrays). */
function topLevel(kind: Kind): { name: string; type: string | undefined }[] {
  return kind.fields
    .filter((f: Field) => !f.path.includes('.'))
    .map((f) => ({ name: f.path, type: f.arrays.includes(0) ? 'array' : f.type === 'unknown' ? undefined : f.type }));
}

/**
 * The body of a POST of a container (composite insert, rest-contract §10): the kind, with each
 * embeddable array (`x-embed`) taking whole resources of its kind besides references.
 */
function insertSchema(kind: Kind, model: Model, schemas: Json): Json {
  const root = schemas[kind.typeName] as Json;
  const properties = { ...(root.properties as Json) };
  for (const embed of kind.embeds) {
    const array = properties[embed.property] as Json | undefined;
    const embedded = model.kinds.find((k) => k.slug === embed.kind)!;
    const whole = ref(embedded.embeds.length > 0 ? `${embedded.typeName}Insert` : embedded.typeName);
    if (!array) continue;
    // The array as declared (often a `$ref` to a list of references), its items widened.
    const named = typeof array.$ref === 'string' ? (schemas[array.$ref.slice('#/components/schemas/'.length)] as Json) : array;
    const { $ref: _declared, ...annotations } = array;
    properties[embed.property] = { ...named, ...annotations, type: 'array', items: { anyOf: [named.items ?? {}, whole] } };
  }
  return { ...root, description: `${String(root.description ?? kind.name)} In a POST, its arrays ${kind.embeds.map((e) => `\`${e.property}\``).join(', ')} may hold whole resources, inserted with it (composite insert).`, properties };
}

/** A member's own schema, or (where no component declares it) its JSON type. */
function member(schemas: Json, kind: Kind, name: string, type: string | undefined): Json {
  return memberSchema(schemas, kind.typeName, name) ?? (type === undefined ? {} : type === 'array' ? { type, items: {} } : { type });
}

/**
 * A JSON Merge Patch of the kind: members to set (each as the kind declares it), `null` to
 * remove one.
 */
function patchSchema(kind: Kind, schemas: Json): Json {
  const properties = Object.fromEntries(topLevel(kind).map(({ name, type }) => [name, { anyOf: [member(schemas, kind, name, type), { type: 'null' }] }]));
  return {
    type: 'object',
    description: `A JSON Merge Patch of a ${kind.name}: each member replaces the stored one, \`null\` removes it, objects merge member by member. The result must be a valid ${kind.name}.`,
    properties,
    ...(kind.closed ? { additionalProperties: false } : {}),
  };
}

const SCALARS = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * Whether a value of `schema` may hold a reference that `expand` replaces (server/rest/expand.ts:
 * an object with `href` and `rel` or `ref` "full", at any depth below the answer's top). Scalars
 * and free-form objects (`properties`, `location` beyond its named members, `configuration`)
 * declare no `href`: an expansion inside a free-form object leaves it free-form, so their schema
 * already holds the expanded answer. A `$ref` that does not resolve here counts as reaching one.
 */
function reachesReference(schema: unknown, schemas: Json, seen: Set<string>): boolean {
  if (Array.isArray(schema)) return schema.some((item) => reachesReference(item, schemas, seen));
  if (schema === null || typeof schema !== 'object') return false;
  const object = schema as Json;
  if (typeof object.$ref === 'string') {
    if (seen.has(object.$ref)) return false;
    seen.add(object.$ref);
    const target = object.$ref.startsWith('#/components/schemas/')
      ? object.$ref
        .slice('#/components/schemas/'.length)
        .split('/')
          .reduce<unknown>((at, token) => (at !== null && typeof at === 'object' ? (at as Json)[token] : undefined), schemas)
      : undefined;
    if (target === undefined) return true;
    if (reachesReference(target, schemas, seen)) return true;
  }
  if ((object.properties as Json | undefined)?.href !== undefined) return true;
  // A member typed as a union of components (`tsType`, as forTools turns it into `anyOf`).
  if (typeof object.tsType === 'string' && object.tsType.split('|').some((name) => /^[A-Z]\w*$/.test(name.trim()) && reachesReference(ref(name.trim()), schemas, seen))) return true;
  return ['properties', 'items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'patternProperties'].some((key) => {
    const child = object[key];
    return key === 'properties' || key === 'patternProperties' ? child !== undefined && Object.values(child as Json).some((c) => reachesReference(c, schemas, seen)) : reachesReference(child, schemas, seen);
  });
}

/**
 * What `fields=` returns: only the named members (dot notation reaches nested ones). Also what
 * `expand` returns: a member that may hold references may hold the resources instead; the
 * others keep their own schema (Node's `properties` and `location`, for one, are not).
 */
function projectionSchema(kind: Kind, schemas: Json): Json {
  const properties = Object.fromEntries(
    topLevel(kind).map(({ name, type }) => {
      const own = member(schemas, kind, name, type);
      const expandable = !(type !== undefined && SCALARS.has(type)) && reachesReference(own, schemas, new Set());
      return [name, expandable ? { anyOf: [own, ref('Expanded')] } : own];
    }),
  );
  return { type: 'object', description: `A ${kind.name} projected by \`fields=\`: only the named members.`, properties };
}
